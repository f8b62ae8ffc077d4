import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import type { TestOperator } from '../helpers/identity';
import { checkPage, igamingOperator, openFromNav, signedInBrowser } from './steps';

/**
 * A self-excluded player's marketing email is suppressed by the responsible-gambling gate: the designer sees
 * "suppressed · self excluded" — not a completed step's green — beside the run in the Runs list, finds the run with
 * the "Suppressed step" filter, and sees the badge on the run's steps and on its graph (issue #44).
 */
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
const runIds: Record<string, string> = {};

beforeAll(async () => {
  app = await startTestApp();
  let key: string;
  ({ owner, key } = await igamingOperator(app.url, 'Gate Casino', ['p-excluded', 'p-ok']));
  const compliance = { selfExcluded: true, coolingOff: false, exclusionSources: ['gamstop'], depositLimit: 0 };
  await http(`${app.url}/operator-data-api/entities/p-excluded/state/compliance`, { method: 'PUT', token: key, body: { value: compliance } });
  const created = await http(`${app.url}/workflows-api/workflows`, {
    token: key,
    body: {
      name: 'Reload offer',
      nodes: [
        { id: 'start', type: 'trigger.manual', params: {} },
        { id: 'offer', type: 'action.send_email', params: { to: '{{ trigger.playerId }}@players.test', subject: 'Reload bonus', text: 'Come back' } },
        { id: 'after', type: 'action.note', params: { text: 'offered' } },
      ],
      edges: [
        { from: 'start', to: 'offer' },
        { from: 'offer', to: 'after' },
      ],
    },
  });
  const note = await http(`${app.url}/workflows-api/workflows`, {
    token: key,
    body: {
      name: 'Just a note',
      nodes: [
        { id: 'start', type: 'trigger.manual', params: {} },
        { id: 'after', type: 'action.note', params: { text: 'hi' } },
      ],
      edges: [{ from: 'start', to: 'after' }],
    },
  });
  const excluded = await http(`${app.url}/workflows-api/workflows/${created.body.data.id}/test`, { token: key, body: { playerId: 'p-excluded' } });
  expect(excluded.body.data).toMatchObject({
    status: 'completed',
    nodes: [{}, { id: 'offer', status: 'completed', suppressed: { rule: 'self_excluded' } }, {}],
  });
  runIds.excluded = excluded.body.data.id;
  runIds.plain = (await http(`${app.url}/workflows-api/workflows/${note.body.data.id}/test`, { token: key, body: { playerId: 'p-ok' } })).body.data.id;
  ({ browser, page } = await signedInBrowser(app.url, owner, { viewport: { width: 1280, height: 800 } }));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const row = (runId: string) => page.locator(`tr[data-run-id="${runId}"]`);

describe('a suppressed marketing step', () => {
  it('shows its badge beside the run in the Runs list, and the filter finds only that run', async () => {
    await openFromNav(page, 'Runs');
    await row(runIds.excluded!).waitFor();
    await row(runIds.plain!).waitFor();
    const badge = row(runIds.excluded!).locator('.badge-suppressed');
    expect(await badge.textContent()).toBe('suppressed · self excluded');
    expect(await row(runIds.plain!).locator('.badge-suppressed').count()).toBe(0);

    await page.getByLabel('Suppressed step').selectOption('true');
    await page.waitForURL(/suppressed=true/);
    await row(runIds.plain!).waitFor({ state: 'detached' });
    await row(runIds.excluded!).waitFor();
    await page.getByLabel('Suppressed step').selectOption('cooling_off');
    await page.getByText('No run matches these filters.').waitFor();
    await page.getByLabel('Suppressed step').selectOption('self_excluded');
    await row(runIds.excluded!).waitFor();
    await checkPage(page, 'runs-suppressed');
  });

  it("shows it on the run's steps and its graph, not as completed", async () => {
    await row(runIds.excluded!)
      .getByRole('link', { name: `Open run ${runIds.excluded}` })
      .click();
    const step = page.locator('.run-steps li[data-step="offer"]');
    await step.locator('.badge-suppressed').waitFor();
    expect(await step.locator('.run-step-head .badge-completed').count()).toBe(0);
    expect(await page.locator('.run-steps li[data-step="after"] .badge-completed').count()).toBe(1);
    const onGraph = page.locator('.react-flow__node[data-id="offer"] .badge-suppressed');
    await onGraph.waitFor();
    expect(await onGraph.textContent()).toBe('suppressed · self excluded');
    await checkPage(page, 'run-suppressed');
  });
});
