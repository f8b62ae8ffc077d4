import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import type { TestOperator } from '../helpers/identity';
import { checkPage, igamingOperator, openFromNav, signedInBrowser } from './steps';

/**
 * A designer builds the Welcome journey from its starter (welcome email → wait for a deposit → reminder on timeout),
 * shortens the wait for the test and saves; then a player who deposits while the run waits ends the journey there,
 * and one who does not gets the reminder once the wait times out.
 */
const WAIT_SECONDS = 8;
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
let key: string;
let workflowId: string;

beforeAll(async () => {
  app = await startTestApp();
  ({ owner, key } = await igamingOperator(app.url, 'Journey Casino'));
  ({ browser, page } = await signedInBrowser(app.url, owner, { viewport: { width: 1280, height: 800 } }));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const node = (id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
const inspector = () => page.getByRole('complementary', { name: 'Selected step' });

/** A new player (its `entity.created` starts the journey) and the journey's run for it, once that run waits. */
async function playerWaiting(externalId: string): Promise<string> {
  const created = await http(`${app.url}/operator-data-api/entities`, {
    token: key,
    body: { entityType: 'player', externalId, data: { email: `${externalId}@example.test` } },
  });
  expect(created.status).toBe(201);
  for (let tries = 0; tries < 200; tries += 1) {
    const wait = await app.deps.db('automation_run_waits').where({ operator_id: owner.operatorId, external_id: externalId }).first('run_id');
    if (wait) return wait.run_id as string;
    await page.waitForTimeout(100);
  }
  throw new Error(`no run waits for ${externalId}`);
}

async function finishedRun(runId: string): Promise<any> {
  for (let tries = 0; tries < 300; tries += 1) {
    const run = (await http(`${app.url}/workflows-api/runs/${runId}`, { token: key })).body.data;
    if (run.status !== 'running') return run;
    await page.waitForTimeout(100);
  }
  throw new Error(`run ${runId} still running`);
}

describe('the Welcome journey', () => {
  it('is built from its starter, with a shorter wait, and saved', async () => {
    await openFromNav(page, 'Workflows');
    await page.getByRole('link', { name: 'Use “Welcome journey”' }).click();
    await page.getByRole('heading', { level: 1, name: 'New workflow' }).waitFor();
    for (const id of ['created', 'welcome', 'deposit', 'reminder']) await node(id).waitFor();
    await node('deposit').click();
    await inspector().getByRole('heading', { name: 'Wait for an event' }).waitFor();
    await inspector().getByLabel('Give up after (seconds)').fill(String(WAIT_SECONDS));
    await checkPage(page, 'workflow-welcome-journey');
    await page.getByRole('button', { name: 'Save workflow' }).click();
    await page.getByText('Saved as version 1.').waitFor();
    await page.waitForURL(/\/workflows\/wf_/);
    workflowId = page.url().split('/').pop()!;

    const stored = await app.deps.db('automations').where({ operator_id: owner.operatorId, id: workflowId }).first('nodes', 'edges', 'run_control');
    expect(stored.nodes.find((item: { id: string }) => item.id === 'deposit')).toEqual({
      id: 'deposit',
      type: 'action.wait_for_event',
      params: { event: 'entity_event.transaction', filter: 'event.data.type = "deposit"', timeoutSeconds: WAIT_SECONDS },
    });
    expect(stored.edges).toEqual([
      { from: 'created', to: 'welcome' },
      { from: 'welcome', to: 'deposit' },
      { from: 'deposit', to: 'reminder', when: false },
    ]);
    expect(stored.run_control).toEqual({ concurrency: { limit: 1, when_busy: 'skip' } });
  });

  it('a player who deposits while the run waits ends the journey: no reminder', async () => {
    const runId = await playerWaiting('p-eager');
    const deposit = await http(`${app.url}/operator-data-api/entities/p-eager/events`, {
      token: key,
      body: { eventType: 'transaction', data: { type: 'deposit', amount: 2000, currency: 'EUR' } },
    });
    expect(deposit.status).toBe(201);
    const run = await finishedRun(runId);
    expect(run.status).toBe('completed');
    expect(run.nodes.map((item: any) => [item.id, item.status])).toEqual([
      ['created', 'completed'],
      ['welcome', 'completed'],
      ['deposit', 'completed'],
      ['reminder', 'skipped'],
    ]);
    expect(run.nodes[2].output).toMatchObject({ happened: 'event', event: { event: 'entity_event.transaction', data: { type: 'deposit', amount: 2000 } } });

    await page.goto(`/runs/${runId}`);
    await page.locator('[data-step="deposit"]', { hasText: 'the event arrived' }).waitFor();
    await page.locator('[data-step="reminder"]', { hasText: /skipped/i }).waitFor();
    await checkPage(page, 'run-welcome-journey-deposited');
  });

  it('a player who does not deposit gets the reminder when the wait times out', async () => {
    const runId = await playerWaiting('p-quiet');
    const run = await finishedRun(runId);
    expect(run.status).toBe('completed');
    expect(run.nodes.map((item: any) => [item.id, item.status])).toEqual([
      ['created', 'completed'],
      ['welcome', 'completed'],
      ['deposit', 'completed'],
      ['reminder', 'completed'],
    ]);
    expect(run.nodes[2].output).toEqual({ happened: 'timeout' });
    // The shared test worker has no SMTP_URL: the message is written under DATA_DIR/mail, and the node says where.
    const reminder = run.nodes[3].output;
    expect(reminder.delivery).toBe('file');
    const message = readFileSync(path.join(path.resolve(process.env.DATA_DIR!, 'mail'), reminder.file), 'utf8');
    expect(message).toContain('p-quiet@example.test');
    expect(message).toContain('Your welcome bonus is waiting');
  });
});
