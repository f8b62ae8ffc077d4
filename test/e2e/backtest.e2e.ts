import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createApiKey, signupOperator, type TestOperator } from '../helpers/identity';
import { IGAMING_TEMPLATE_ID } from '../../core/templates';
import { checkPage, signedInBrowser } from './steps';

/**
 * Before activating a change, the designer lowers a bonus threshold in the editor (unsaved), runs a backtest of the
 * draft over the stored deposits from the Backtest tab, watches it finish and reads which players the change would
 * newly reach, each a link to the player — and nothing was sent.
 */
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
let key: string;

/** Largest deposit per player: p-1 and p-2 are over 1,000 already, p-3 and p-4 over 500 only, p-5 under. */
const DEPOSITS: Record<string, number[]> = { 'p-1': [1500, 20], 'p-2': [1200], 'p-3': [700, 30], 'p-4': [600], 'p-5': [100, 200] };

beforeAll(async () => {
  app = await startTestApp();
  owner = await signupOperator(app.url, 'Backtest Casino');
  key = (await createApiKey(app.url, owner, 'backend')).key;
  const data = (path: string, body: unknown, method = 'POST') => http(`${app.url}/operator-data-api${path}`, { token: key, method, body });
  expect((await data('/settings', { templateId: IGAMING_TEMPLATE_ID }, 'PUT')).status).toBe(200);
  for (const [externalId, amounts] of Object.entries(DEPOSITS)) {
    expect((await data('/entities', { entityType: 'player', externalId, data: {} })).status).toBeLessThan(300);
    for (const amount of amounts) {
      expect((await data(`/entities/${externalId}/events`, { eventType: 'transaction', data: { type: 'deposit', amount, currency: 'EUR' } })).status).toBe(201);
    }
  }
  ({ browser, page } = await signedInBrowser(app.url, owner));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the Backtest tab of the workflow editor', () => {
  it('backtests the draft in the editor against the saved version and shows the players it would newly reach', async () => {
    const created = await http(`${app.url}/workflows-api/workflows`, {
      token: key,
      method: 'POST',
      body: {
        name: 'Deposit bonus',
        nodes: [
          { id: 'deposit', type: 'trigger.event', params: { event: 'entity_event.transaction' } },
          { id: 'big', type: 'condition', params: { expression: 'trigger.data.amount > 1000' } },
          { id: 'flag', type: 'action.set_state', params: { externalId: '{{ trigger.entity.externalId }}', key: 'bonus', value: true } },
        ],
        edges: [
          { from: 'deposit', to: 'big' },
          { from: 'big', to: 'flag', when: true },
        ],
      },
    });
    expect(created.status).toBe(201);
    const workflowId = created.body.data.id;

    await page.goto(`/workflows/${workflowId}`);
    await page.locator('.react-flow__node[data-id="big"]').click();
    await page.getByRole('complementary', { name: 'Selected step' }).getByLabel('Condition', { exact: true }).fill('trigger.data.amount > 500');
    await page.getByRole('tab', { name: 'Backtest' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Backtest' });
    await panel.getByText('as it is in the editor, unsaved changes included').waitFor();
    await panel.getByRole('button', { name: 'Run backtest' }).click();

    const newly = panel.getByRole('list', { name: 'Newly affected players' });
    await newly.waitFor({ timeout: 60_000 });
    expect(await newly.getByRole('link').allTextContents()).toEqual(['p-3', 'p-4']);
    expect(await panel.getByRole('list', { name: 'Players affected' }).getByRole('link').allTextContents()).toEqual(['p-1', 'p-2', 'p-3', 'p-4']);
    await panel.getByText('8 of 8 events replayed').waitFor();
    // Both sides: the draft's count of players and of each step beside the current version's.
    expect(
      await panel
        .getByRole('row', { name: /^Players affected/ })
        .getByRole('cell')
        .allTextContents(),
    ).toEqual(['4', '2']);
    const steps = panel.getByRole('table', { name: 'Steps, backtested and current' });
    expect(await steps.getByRole('row', { name: /^flag/ }).getByRole('cell').first().textContent()).toBe('4 (current 2)');
    expect(await panel.getByRole('list', { name: 'Actions added or removed' }).textContent()).toContain('flag (action.set_state): 4 instead of 2');
    await checkPage(page, 'workflow-backtest');

    // Nothing was performed: no state set, no run recorded.
    const states = await app.deps.db('entity_states').where({ operator_id: owner.operatorId }).count<{ count: string }[]>({ count: '*' });
    expect(Number(states[0]!.count)).toBe(0);
    const runs = await app.deps.db('automation_runs').where({ operator_id: owner.operatorId }).count<{ count: string }[]>({ count: '*' });
    expect(Number(runs[0]!.count)).toBe(0);

    // The draft is still unsaved: following a player link asks first.
    await newly.getByRole('link', { name: 'p-3' }).click();
    await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Leave and discard' }).click();
    await page.waitForURL(/\/players\/p-3$/);
  });
});
