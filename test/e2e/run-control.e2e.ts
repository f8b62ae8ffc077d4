import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import type { TestOperator } from '../helpers/identity';
import { checkPage, igamingOperator, signedInBrowser } from './steps';

/**
 * A designer limits a deposit automation to one run per player at a time in the editor's "Run control" section
 * (docs/workflows.md "Run control"): after saving, a burst of five deposits for one player makes one run.
 */
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
let key: string;
let workflowId: string;

beforeAll(async () => {
  app = await startTestApp();
  ({ owner, key } = await igamingOperator(app.url, 'One At A Time Casino', ['p-7']));
  const created = await http(`${app.url}/workflows-api/workflows`, {
    token: key,
    body: {
      name: 'Deposit thank-you',
      nodes: [
        { id: 'deposit', type: 'trigger.event', params: { event: 'entity_event.transaction' } },
        { id: 'pause', type: 'action.delay', params: { seconds: 4 } },
      ],
      edges: [{ from: 'deposit', to: 'pause' }],
    },
  });
  expect(created.status).toBe(201);
  workflowId = created.body.data.id;
  ({ browser, page } = await signedInBrowser(app.url, owner, { viewport: { width: 1280, height: 800 } }));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('run control in the editor', () => {
  it('sets one run per player at a time, skipping the rest, and keeps the graph in view', async () => {
    await page.goto(`/workflows/${workflowId}`);
    const settings = page.getByRole('form', { name: 'Workflow settings' });
    await settings.getByText('Run control:').click();
    await settings.getByLabel('Limit runs per key').check();
    expect(await settings.getByLabel('Runs at the same time per key').inputValue()).toBe('1');
    await settings.getByText('Applies to runs started by events (event triggers) only').waitFor();
    await settings.getByText('At most this many runs of one key run at the same time').waitFor();
    await settings.getByLabel('When busy').selectOption('skip');
    await settings.getByText('1 at a time per key, else skip').waitFor();
    await checkPage(page, 'workflow-run-control');
    // Folded again, the section is one line: the graph keeps its place on a 1280×800 screen.
    await settings.getByText('Run control:').click();
    await settings.getByLabel('Limit runs per key').waitFor({ state: 'hidden' });
    const canvas = await page.getByRole('region', { name: 'Workflow graph' }).boundingBox();
    expect(800 - canvas!.y).toBeGreaterThan(250);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved as version 2.').waitFor();
    const stored = await app.deps.db('automations').where({ operator_id: owner.operatorId, id: workflowId }).first('run_control', 'version');
    expect(stored).toEqual({ run_control: { concurrency: { limit: 1, when_busy: 'skip' } }, version: 2 });
  });

  it('turns a burst of five deposits for one player into one run in the runs list', async () => {
    for (let amount = 1; amount <= 5; amount += 1) {
      const written = await http(`${app.url}/operator-data-api/entities/p-7/events`, {
        token: key,
        body: { eventType: 'transaction', data: { type: 'deposit', amount, currency: 'EUR' } },
      });
      expect(written.status).toBe(201);
    }
    await page.getByRole('tab', { name: 'Runs' }).click();
    const completed = page.getByRole('row', { name: /event/ }).filter({ hasText: 'completed' }).first();
    await completed.waitFor({ timeout: 30_000 }).catch(async () => {
      await page.reload();
      await completed.waitFor({ timeout: 15_000 });
    });
    await page.waitForTimeout(1000);
    await page.reload();
    await completed.waitFor();
    expect(await page.getByRole('row', { name: /event/ }).count()).toBe(1);
    const runs = await http(`${app.url}/workflows-api/workflows/${workflowId}/runs`, { token: key });
    expect(runs.body.count).toBe(1);
    await checkPage(page, 'workflow-run-control-runs');
  });
});
