import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createApiKey, signupOperator, type TestOperator } from '../helpers/identity';
import { checkPage, signedInBrowser } from './steps';

/**
 * A designer changes an automation in the editor while one of its runs sleeps in a delay: the run finishes on the
 * version it started with (docs/workflows.md "Versions"), its page says so, and the next run takes the new version.
 */
const DELAY_SECONDS = 6;
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
let key: string;
let workflowId: string;

const api = (path: string, init: { method?: string; body?: unknown } = {}) => http(`${app.url}${path}`, { token: key, ...init });

async function finishedRun(runId: string): Promise<any> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const run = (await api(`/workflows-api/runs/${runId}`)).body.data;
    if (run.status !== 'running') return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} still running`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const testRun = async (): Promise<string> => {
  const started = await api(`/workflows-api/workflows/${workflowId}/test`, { method: 'POST', body: {} });
  expect(started.status).toBe(202);
  return started.body.data.id;
};

beforeAll(async () => {
  app = await startTestApp({ WORKFLOW_TEST_WAIT_MS: '200' });
  owner = await signupOperator(app.url, 'Steady Casino');
  key = (await createApiKey(app.url, owner, 'backend')).key;
  await api('/operator-data-api/settings', { method: 'PUT', body: { templateId: 'tpl_igaming' } });
  await api('/operator-data-api/entities', { body: { entityType: 'player', externalId: 'p-1', data: {} } });
  const created = await api('/workflows-api/workflows', {
    body: {
      name: 'Mark after a pause',
      nodes: [
        { id: 'start', type: 'trigger.manual', params: {} },
        { id: 'pause', type: 'action.delay', params: { seconds: DELAY_SECONDS } },
        { id: 'mark', type: 'action.set_state', params: { externalId: 'p-1', key: 'risk_score', value: 1 } },
      ],
      edges: [
        { from: 'start', to: 'pause' },
        { from: 'pause', to: 'mark' },
      ],
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

describe('a run keeps the version it started with', () => {
  it('finishes on version 1 after the editor saved version 2 while it slept; the next run takes version 2', async () => {
    const sleeping = await testRun();
    expect((await api(`/workflows-api/runs/${sleeping}`)).body.data).toMatchObject({ status: 'running', workflowVersion: 1 });

    await page.goto(`/workflows/${workflowId}`);
    const inspector = page.getByRole('complementary', { name: 'Selected step' });
    await inspector.getByRole('button', { name: 'mark', exact: true }).click();
    await inspector.getByLabel('State', { exact: true }).fill('loyalty_tier');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved as version 2.').waitFor();
    expect((await api(`/workflows-api/runs/${sleeping}`)).body.data.status).toBe('running');

    const finished = await finishedRun(sleeping);
    expect(finished).toMatchObject({ status: 'completed', workflowVersion: 1 });
    expect(finished.nodes.find((node: any) => node.id === 'mark')).toMatchObject({ status: 'completed', output: { key: 'risk_score' } });
    const states = await app.deps.db('entity_states').where({ operator_id: owner.operatorId }).select('state_key');
    expect(states.map((row: any) => row.state_key)).toEqual(['risk_score']);

    await page.goto(`/runs/${sleeping}`);
    await page.getByText('A run of version 1.').waitFor();
    await page.locator('[data-step="mark"]', { hasText: '"key": "risk_score"' }).waitFor();
    await checkPage(page, 'run-pinned-to-version-1');

    const next = await finishedRun(await testRun());
    expect(next).toMatchObject({ status: 'completed', workflowVersion: 2 });
    expect(next.nodes.find((node: any) => node.id === 'mark').output).toMatchObject({ key: 'loyalty_tier' });
  }, 60_000);
});
