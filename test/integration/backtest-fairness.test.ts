import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, waitForRuns, type AutomationsClient } from '../helpers/automations';
import { waitForJob } from '../helpers/data';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';

/** The issue's condition with more `a`s, so that one evaluation always passes the 50 ms CPU budget (~0.8 s alone). */
const COSTLY = `$count($match("${'a'.repeat(24)}!", $eval('/(a+)+b/'))) = 0`;
/** Costly but within the budget alone (~10 ms): a batch of them is stopped and split again and again — a backtest that grinds. */
const GRINDING = `$count($match("${'a'.repeat(17)}!", $eval('/(a+)+b/'))) = 0`;

const definition = (expression: string) => ({
  nodes: [
    { id: 'deposit', type: 'trigger.event', params: { event: 'entity_event.transaction' } },
    { id: 'check', type: 'condition', params: { expression } },
    { id: 'mail', type: 'action.send_email', params: { to: 'crm@example.test', subject: 'Bonus', text: 'Hi' } },
  ],
  edges: [
    { from: 'deposit', to: 'check' },
    { from: 'check', to: 'mail', when: true },
  ],
});

/** `count` deposits of one player, stored through the batch API: the history a backtest replays. */
async function history(client: AutomationsClient, count: number): Promise<void> {
  const entity = await client.call('/batch/entities', { body: [{ entityType: 'player', externalId: 'p-1', data: {} }] });
  await waitForJob(client, entity.body.data.jobId);
  const body = Array.from({ length: count }, (_, i) => ({
    externalId: 'p-1',
    eventType: 'transaction',
    data: { type: 'deposit', amount: i, currency: 'EUR' },
  }));
  expect((await waitForJob(client, (await client.call('/batch/events', { body })).body.data.jobId)).output.succeeded).toBe(count);
}

/** CPU (ms, user + system) of each process descended from `pid`: the worker's sandbox launcher and its sandbox processes. */
function descendantCpu(pid: number): Map<number, number> {
  const parents = new Map<number, number>();
  const used = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
      used.set(Number(entry), (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      /* gone meanwhile */
    }
  }
  // The sandbox processes are the children of the worker's sandbox launcher, itself the worker's child.
  const descends = (process: number): boolean => {
    const parent = parents.get(process);
    return parent === pid || (parent !== undefined && parent > 1 && descends(parent));
  };
  const cpu = new Map<number, number>();
  for (const [process, ms] of used) if (descends(process)) cpu.set(process, ms);
  return cpu;
}

/** CPU the sandbox processes used between two readings: a process started meanwhile (one killed past its budget replaced) counts whole. */
const usedBetween = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [child, ms]) => sum + Math.max(0, ms - (before.get(child) ?? 0)), 0);

async function backtestEnded(client: AutomationsClient, backtestId: string, timeoutMs: number): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await client.wf(`/backtests/${backtestId}`);
    if (response.status === 200 && response.body.data.status !== 'running') return response.body.data;
    if (Date.now() > deadline) throw new Error(`backtest ${backtestId} did not end: ${response.text}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('backtests share fairly (activities/automation/backtestEvaluator.ts)', () => {
  const queue = `backtest-fair-${randomUUID()}`;
  let worker: WorkerProcess;
  let app: TestApp;
  let organisations: AutomationsClient[];
  let bystander: AutomationsClient;
  const from = new Date(Date.now() - 60_000).toISOString();
  let to: string;

  beforeAll(async () => {
    worker = await spawnWorker({ TEMPORAL_TASK_QUEUE: queue });
    app = await startTestApp({ TEMPORAL_TASK_QUEUE: queue });
    organisations = await Promise.all([automationsClient(app), automationsClient(app), automationsClient(app)]);
    bystander = await automationsClient(app);
    await Promise.all(organisations.map((client, index) => history(client, index === 0 ? 2_000 : 300)));
    to = new Date(Date.now() + 60_000).toISOString();
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await worker?.stop();
  });

  it("three organisations' backtests whose condition always passes its budget each end failed BACKTEST_CONDITION_TIMEOUT, while a bystander's events keep starting runs", async () => {
    const automation = await bystander.create({ name: 'Deposit note', ...definition('trigger.data.amount > 0') });
    const backtests = await Promise.all(
      organisations.map(async (client) => {
        const workflow = await client.create({ name: 'Costly', ...definition('trigger.data.amount >= 0') });
        const created = await client.wf(`/workflows/${workflow.id}/backtests`, { method: 'POST', body: { from, to, definition: definition(COSTLY) } });
        expect(created.status).toBe(202);
        return { client, id: created.body.data.id as string, started: Date.now() };
      }),
    );
    await bystander.call('/entities', { body: { entityType: 'player', externalId: 'p-9', data: {} } });
    const sent = Date.now();
    for (let i = 0; i < 5; i += 1) {
      const answer = await bystander.call('/entities/p-9/events', {
        body: { eventType: 'transaction', data: { type: 'deposit', amount: 10 + i, currency: 'EUR' } },
      });
      expect(answer.status).toBe(201);
    }
    const [ended, runs] = await Promise.all([
      Promise.all(backtests.map(async (backtest) => ({ ...(await backtestEnded(backtest.client, backtest.id, 90_000)), ms: Date.now() - backtest.started }))),
      waitForRuns(bystander, automation.id, 5, 60_000).then((finished) => ({ finished, ms: Date.now() - sent })),
    ]);
    process.stdout.write(
      `backtest fairness: three costly backtests ended after ${ended.map((one) => `${(one.ms / 1000).toFixed(1)} s`).join(', ')}; ` +
        `the bystander's 5 event runs all finished ${(runs.ms / 1000).toFixed(1)} s after its first event\n`,
    );
    for (const one of ended) {
      expect(one).toMatchObject({ status: 'failed', result: null, error: { code: 'BACKTEST_CONDITION_TIMEOUT' } });
      expect(one.error.message).toBe(`The expression at params.expression (${COSTLY}) took more than the 50 ms of CPU an expression may use 3 times in a row`);
    }
    expect(runs.finished.map((run: any) => run.status)).toEqual(Array(5).fill('completed'));
  }, 150_000);

  it('a cancelled backtest stops its evaluations within seconds: the sandbox goes quiet', async () => {
    const [grinder] = organisations;
    const workflow = await grinder!.create({ name: 'Grinding', ...definition('trigger.data.amount >= 0') });
    const created = await grinder!.wf(`/workflows/${workflow.id}/backtests`, { method: 'POST', body: { from, to, definition: definition(GRINDING) } });
    expect(created.status).toBe(202);
    const pid = worker.child.pid!;
    let last = descendantCpu(pid);
    let busyMs = 0;
    const grinding = Date.now();
    while (busyMs <= 500 && Date.now() - grinding < 30_000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const now = descendantCpu(pid);
      busyMs += usedBetween(last, now);
      last = now;
    }
    expect(busyMs).toBeGreaterThan(500);
    expect((await grinder!.wf(`/backtests/${created.body.data.id}`)).body.data.status).toBe('running');

    const cancelled = Date.now();
    expect((await grinder!.wf(`/backtests/${created.body.data.id}/cancel`, { method: 'POST' })).status).toBe(202);
    let quietSince = Date.now();
    let afterMs = 0;
    while (Date.now() - cancelled < 15_000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const now = descendantCpu(pid);
      const used = usedBetween(last, now);
      if (used > 30) quietSince = Date.now();
      afterMs += used;
      last = now;
    }
    const stoppedMs = quietSince - cancelled;
    process.stdout.write(
      `backtest cancel: the sandbox used ${busyMs} ms of CPU in the ${((cancelled - grinding) / 1000).toFixed(1)} s before the cancel; it went quiet ${stoppedMs} ms after it (${afterMs} ms of CPU in the 15 s after)\n`,
    );
    expect(stoppedMs).toBeLessThan(5_000);
    expect((await grinder!.wf(`/backtests/${created.body.data.id}`)).body.data.status).toBe('cancelled');
  }, 75_000);
});
