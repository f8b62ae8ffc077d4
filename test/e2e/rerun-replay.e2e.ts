import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createApiKey, signupOperator, type TestOperator } from '../helpers/identity';
import { startProvider, type TestProvider } from '../helpers/providerServer';
import { checkPage, signedInBrowser } from './steps';

/**
 * A supplier was down: the designer reruns one failed run from its failed step once it is back (the steps before it
 * are not repeated), then replays every run that failed during the outage and watches the job's progress.
 */
let app: TestApp;
let browser: Browser;
let page: Page;
let owner: TestOperator;
let key: string;
let supplier: TestProvider;
let supplierUp = false;
/** Payloads (`n`) the supplier keeps refusing even when it is up. */
const stillDown = new Set<number>();
const hits = (path: string) => supplier.requests.filter((request) => request.path === path).length;

beforeAll(async () => {
  app = await startTestApp({ WORKFLOW_TEST_WAIT_MS: '300' });
  owner = await signupOperator(app.url, 'Rerun Casino');
  key = (await createApiKey(app.url, owner, 'backend')).key;
  // Refuses (400, so a run fails at once) until it is back.
  supplier = await startProvider((request) =>
    request.path === '/first' || (supplierUp && !stillDown.has(Number(request.json?.n)))
      ? { status: 200, body: { ok: true } }
      : { status: 400, body: { error: 'supplier down' } },
  );
  ({ browser, page } = await signedInBrowser(app.url, owner));
});
afterAll(async () => {
  await browser?.close();
  await supplier?.close();
  await app?.close();
});

const wf = (path: string, body?: unknown) => http(`${app.url}/workflows-api${path}`, { token: key, ...(body === undefined ? {} : { method: 'POST', body }) });

async function automation(name: string): Promise<string> {
  const created = await wf('/workflows', {
    name,
    nodes: [
      { id: 'start', type: 'trigger.manual', params: {} },
      { id: 'first', type: 'action.http_request', params: { method: 'POST', url: `${supplier.url}/first` } },
      { id: 'call', type: 'action.http_request', params: { method: 'POST', url: `${supplier.url}/bonus`, body: { n: '{{ trigger.n }}' } } },
    ],
    edges: [
      { from: 'start', to: 'first' },
      { from: 'first', to: 'call' },
    ],
  });
  expect(created.status).toBe(201);
  return created.body.data.id;
}

/** Starts `count` test runs and waits until every one has ended. */
async function failedRuns(workflowId: string, count: number, firstN = 0): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 20) {
    const batch = await Promise.all(Array.from({ length: Math.min(20, count - i) }, (_, k) => wf(`/workflows/${workflowId}/test`, { n: firstN + i + k })));
    ids.push(...batch.map((response) => response.body.data.id as string));
  }
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [row] = await app.deps.db('automation_runs').whereIn('id', ids).where({ status: 'failed' }).count<{ n: string }[]>({ n: '*' });
    const n = Number(row?.n ?? 0);
    if (n === count) return ids;
    if (Date.now() > deadline) throw new Error(`only ${n} of ${count} runs failed`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('rerun and replay in the dashboard', () => {
  it('reruns a failed run from its failed step once the supplier recovered', async () => {
    const workflowId = await automation('Bonus credit');
    const [original] = await failedRuns(workflowId, 1);
    expect([hits('/first'), hits('/bonus')]).toEqual([1, 1]);
    supplierUp = true;

    await page.goto(`/workflows/${workflowId}?run=${original}`);
    await page.getByRole('heading', { name: `Run ${original} failed` }).waitFor();
    await page.getByRole('button', { name: 'Rerun from step…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rerun from a step' });
    expect(await dialog.getByLabel('Step to rerun from').inputValue()).toBe('call');
    await dialog.getByLabel("The run's version (1)").check();
    await checkPage(page, 'rerun-dialog');
    await dialog.getByRole('button', { name: 'Rerun from call' }).click();

    await page.waitForURL((url) => url.searchParams.get('run') !== original && url.searchParams.get('run') !== null);
    const rerunId = new URL(page.url()).searchParams.get('run')!;
    await page.getByRole('heading', { name: `Run ${rerunId} completed` }).waitFor();
    await page.getByText(`Rerun of ${original} from step call`).waitFor();
    await page.getByText('reused from the original run').waitFor();
    await checkPage(page, 'rerun-completed');
    // The supplier was called once more; the step before it was not repeated.
    expect([hits('/first'), hits('/bonus')]).toEqual([1, 2]);

    await page.getByRole('link', { name: original }).click();
    await page.getByRole('heading', { name: `Run ${original} failed` }).waitFor();
  });

  it('replays 200 runs that failed during an outage, showing the progress to the end', async () => {
    supplierUp = false;
    const workflowId = await automation('Outage replay');
    const originals = await failedRuns(workflowId, 200);
    supplierUp = true;
    const before = hits('/bonus');

    await page.goto(`/workflows/${workflowId}?tab=runs`);
    await page.getByRole('button', { name: 'Replay failed runs…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Replay failed runs' });
    await dialog.getByLabel('Reruns per second').fill('50');
    await dialog.getByText('200 runs will be replayed').waitFor();
    await checkPage(page, 'replay-dialog');
    await dialog.getByRole('button', { name: 'Replay 200 runs' }).click();

    await dialog.getByRole('progressbar').waitFor();
    await dialog.getByText('200 of 200 replayed · 200 started · 200 succeeded · 0 failed').waitFor({ timeout: 90_000 });
    await dialog.getByText('completed', { exact: true }).waitFor();
    await checkPage(page, 'replay-done');

    const reruns = await app.deps.db('automation_runs').where({ operator_id: owner.operatorId, automation_id: workflowId }).whereNotNull('replay_id');
    expect(reruns).toHaveLength(200);
    expect(new Set(reruns.map((run) => run.rerun_of))).toEqual(new Set(originals));
    expect(hits('/bonus') - before).toBe(200);
  });

  it('replays each event once after a manual rerun — its latest attempt — and lists the errors by code with links', async () => {
    supplierUp = false;
    const workflowId = await automation('Deposit retry');
    const [a, b, c] = await failedRuns(workflowId, 3, 1000);
    // a is rerun by hand while the supplier is still down: it fails again, so a's latest attempt is that rerun.
    const manual = await wf(`/runs/${a}/rerun`, { fromNodeId: 'call' });
    expect(manual.status).toBe(202);
    const aRerun = manual.body.data.runId as string;
    for (let deadline = Date.now() + 30_000; ;) {
      const row = await app.deps.db('automation_runs').where({ id: aRerun }).first();
      if (row?.status === 'failed') break;
      if (Date.now() > deadline) throw new Error(`the manual rerun did not fail: ${JSON.stringify(row)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    supplierUp = true;
    stillDown.add(1002);
    const before = hits('/bonus');

    await page.goto(`/workflows/${workflowId}?tab=runs`);
    await page.getByRole('button', { name: 'Replay failed runs…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Replay failed runs' });
    const preview = dialog.getByRole('status', { name: 'Replay preview' });
    await preview.getByText('3 runs will be replayed').waitFor();
    await preview.getByText('HTTP_400 × 3').waitFor();
    expect(await preview.locator('tbody tr').count()).toBe(3);
    await preview.getByText('(a rerun)').waitFor();
    await checkPage(page, 'replay-preview');
    await dialog.getByRole('button', { name: 'Replay 3 runs' }).click();

    const progress = dialog.getByRole('status', { name: 'Replay progress' });
    await progress.getByText('3 of 3 replayed · 3 started · 2 succeeded · 1 failed').waitFor({ timeout: 30_000 });
    await progress.getByText('completed', { exact: true }).waitFor();
    await progress.getByRole('heading', { name: 'Errors by code' }).waitFor();
    const reruns = await app.deps.db('automation_runs').where({ operator_id: owner.operatorId, automation_id: workflowId }).whereNotNull('replay_id');
    // One new run per event: a's from its manual rerun (not a again), b and c from their originals.
    expect(reruns.map((run) => run.rerun_of).sort()).toEqual([aRerun, b, c].sort());
    expect(hits('/bonus') - before).toBe(3);
    const failedRerun = reruns.find((run) => run.rerun_of === c)!;
    const link = progress.getByRole('link', { name: `Rerun ${failedRerun.id} (HTTP_400)` });
    expect(await link.getAttribute('href')).toBe(`/runs/${failedRerun.id}`);
    await checkPage(page, 'replay-errors');
    await link.click();
    await page.waitForURL(`**/runs/${failedRerun.id}`);
  });
});
