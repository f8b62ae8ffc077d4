import { randomBytes, randomUUID } from 'node:crypto';
import { beginRun } from '../../commands/runs/begin';
import { createLogger } from '../../core/logger';
import { prefixedId } from '../../core/ids';
import { startAutomationRun } from '../../temporal/automationRuns';
import { reconcileRuns } from '../../worker/runWatchdog';
import { startTestApp, type TestApp } from '../helpers/app';
import { beginManualRun, chain, automationsClient, type AutomationsClient } from '../helpers/automations';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/**
 * A run that cannot finish: its (large) trigger payload rests in temporal_payloads, which is emptied while the run
 * sleeps and its worker is replaced, so the new worker cannot replay the history — every workflow task fails.
 */
describe('the run watchdog closes runs that cannot finish', () => {
  const queue = `watchdog-${randomUUID()}`;
  let worker: WorkerProcess;
  let app: TestApp;
  let client: AutomationsClient;
  const counted: Array<[string, string]> = [];
  const watchdog = (poisonAttempts: number, options: { unreadableOutcomeMs?: number } = {}) =>
    reconcileRuns({
      db: app.deps.db,
      client: app.deps.temporal.client,
      refs: app.deps.temporal.payloadRefs!,
      keyring: app.deps.keyring,
      logger: createLogger('silent'),
      poisonAttempts,
      metrics: { runFinished: (source, status) => counted.push([source, status]) },
      quietMs: 0,
      recheckMs: 0,
      sleepingRecheckMs: 0,
      // With no quiet time, a pass over every operator would close other suites' runs between their record and start.
      operatorId: client.operator.operatorId,
      ...options,
    });
  beforeEach(() => {
    counted.length = 0;
  });
  const runRecord = async (runId: string) => (await client.wf(`/runs/${runId}`)).body.data;
  const usage = async () => (await client.wf('/usage')).body.data.actions.used as number;

  beforeAll(async () => {
    worker = await spawnWorker({ TEMPORAL_TASK_QUEUE: queue });
    app = await startTestApp({ TEMPORAL_TASK_QUEUE: queue, WORKFLOW_TEST_WAIT_MS: '200' });
    client = await automationsClient(app);
    expect((await client.call('/entities', { method: 'POST', body: { externalId: 'p-1', entityType: 'player', data: {} } })).status).toBe(201);
  });
  afterAll(async () => {
    await app?.close();
    await worker?.stop();
  });

  it('a run whose workflow task keeps failing is stopped, recorded failed with the reason, and its quota returned; the worker lives', async () => {
    const automation = await client.create(
      chain('Poisoned', [
        { id: 'wait', type: 'action.delay', params: { seconds: 2 } },
        { id: 'mark', type: 'action.set_state', params: { externalId: 'p-1', key: 'risk_score', value: 3 } },
      ]),
    );
    const usedBefore = await usage();
    // Random text: compression leaves it over TEMPORAL_PAYLOAD_MAX_BYTES, so the run's input rests in temporal_payloads.
    const started = await client.wf(`/workflows/${automation.id}/test`, { method: 'POST', body: { note: randomBytes(240 * 1024).toString('base64') } });
    expect(started.status).toBe(202);
    const run = started.body.data;
    await until('the run to reserve its Actions', async () => (await usage()) === usedBefore + 2);
    const workflowId = `automation-manual-${run.id}`;
    const handle = app.deps.temporal.client.workflow.getHandle(workflowId);
    await until('the delay', async () => (await handle.fetchHistory()).events?.some((event) => event.timerStartedEventAttributes));

    await worker.kill();
    const removed = await app.deps.db('temporal_payloads').where({ owner: workflowId }).delete();
    worker = await spawnWorker({ TEMPORAL_TASK_QUEUE: queue });
    expect(removed).toBeGreaterThan(0);

    // Healthy until the task has failed often enough. The database is shared with other suites, so each pass is judged by this run's record.
    await watchdog(1_000);
    expect((await runRecord(run.id)).status).toBe('running');
    await until('a failing workflow task', async () => ((await handle.describe()).raw.pendingWorkflowTask?.attempt ?? 0) >= 2);
    const closed = await until('the watchdog to close the run', async () => {
      await watchdog(2);
      const record = await runRecord(run.id);
      return record.status === 'running' ? undefined : record;
    });

    expect(closed).toMatchObject({ status: 'failed', error: { code: 'WORKFLOW_TASK_FAILED' } });
    expect(closed.error.message).toMatch(/^The run was stopped after its workflow task failed \d+ times: .*Stored payload [0-9a-f-]+ is gone/);
    expect((await handle.describe()).status.name).toBe('TERMINATED');
    expect(await usage()).toBe(usedBefore);
    expect(worker.child.exitCode).toBeNull();
    await watchdog(2);
    expect(await runRecord(run.id)).toEqual(closed);
  }, 120_000);

  it('a run its caller began and never started (the API died in between) is recorded failed (RUN_LOST), its quota returned', async () => {
    const automation = await client.create(
      chain('Never started', [{ id: 'mark', type: 'action.set_state', params: { externalId: 'p-1', key: 'k', value: 1 } }]),
    );
    const usedBefore = await usage();
    const runId = prefixedId('run');
    const begun = await beginManualRun(app, client.operator.operatorId, automation.id, runId);
    expect(begun).toMatchObject({ kind: 'started', runId, reserved: { actions: 1, aiActions: 0 } });
    expect(await usage()).toBe(usedBefore + 1);
    expect((await runRecord(runId)).status).toBe('running');
    const other = await automationsClient(app);
    const othersRunId = prefixedId('run');
    const othersAutomation = await other.create(
      chain('Not this pass', [{ id: 'mark', type: 'action.set_state', params: { externalId: 'p-1', key: 'k', value: 1 } }]),
    );
    expect(await beginManualRun(app, other.operator.operatorId, othersAutomation.id, othersRunId)).toMatchObject({ kind: 'started' });

    await until('the watchdog', async () => {
      await watchdog(5);
      return (await runRecord(runId)).status !== 'running';
    });
    expect(await runRecord(runId)).toMatchObject({
      status: 'failed',
      error: { code: 'RUN_LOST', message: 'Temporal holds no workflow for this run any more: it cannot finish' },
    });
    expect(await usage()).toBe(usedBefore);
    expect(counted).toContainEqual(['manual', 'failed']);
    // A pass for one operator leaves another's runs alone.
    expect((await other.wf(`/runs/${othersRunId}`)).body.data.status).toBe('running');
  });

  it('a run that handed its outcome to a caller that never stored it (the API died) gets that outcome stored', async () => {
    const automation = await client.create(
      chain('Handed back', [{ id: 'mark', type: 'action.set_state', params: { externalId: 'p-1', key: 'loyalty_tier', value: 'silver' } }]),
    );
    const usedBefore = await usage();
    const runId = prefixedId('run');
    const input = { operatorId: client.operator.operatorId, automationId: automation.id, source: 'manual' as const, input: {} };
    const begun = await beginRun(app.deps, { ...input, runId, temporalWorkflowId: `automation-manual-${runId}`, startedAt: new Date().toISOString() });
    if (begun.kind !== 'started') throw new Error(`not begun: ${begun.kind}`);
    const { handle } = await startAutomationRun(app.deps.temporal, { ...input, begun, callerWaitsMs: 60_000 }, runId);
    const ended = await handle.result();
    expect(ended).toMatchObject({ kind: 'ended', runId, outcome: { status: 'completed', executed: { actions: 1, aiActions: 0 } } });
    expect((await runRecord(runId)).status).toBe('running');

    await until('the watchdog', async () => {
      await watchdog(5);
      return (await runRecord(runId)).status !== 'running';
    });
    const stored = await runRecord(runId);
    expect(stored).toMatchObject({ status: 'completed', output: { externalId: 'p-1', key: 'loyalty_tier', value: 'silver' } });
    expect(stored.nodes.map((node: { id: string; status: string }) => [node.id, node.status])).toEqual([
      ['start', 'completed'],
      ['mark', 'completed'],
    ]);
    expect(await usage()).toBe(usedBefore + 1);
    expect(counted).toContainEqual(['manual', 'completed']);
  });

  it('a handed-back outcome that cannot be read is tried again, and given up, its Actions charged, once it has failed long enough', async () => {
    const automation = await client.create(
      chain('Unreadable', [{ id: 'mark', type: 'action.set_state', params: { externalId: 'p-1', key: 'risk_score', value: 2 } }]),
    );
    const usedBefore = await usage();
    const runId = prefixedId('run');
    const temporalWorkflowId = `automation-manual-${runId}`;
    // Random text: the outcome (the trigger is its start node's output) rests in temporal_payloads, Temporal holding its claim.
    const input = {
      operatorId: client.operator.operatorId,
      automationId: automation.id,
      source: 'manual' as const,
      input: { note: randomBytes(300 * 1024).toString('base64') },
    };
    const begun = await beginRun(app.deps, { ...input, runId, temporalWorkflowId, startedAt: new Date().toISOString() });
    if (begun.kind !== 'started') throw new Error(`not begun: ${begun.kind}`);
    const { handle } = await startAutomationRun(app.deps.temporal, { ...input, begun, callerWaitsMs: 60_000 }, runId);
    // Not read here: the codec keeps what it read, and the watchdog must find the stored outcome gone.
    await until('the run ended', async () => (await handle.describe()).status.name === 'COMPLETED');
    expect(await app.deps.db('temporal_payloads').where({ owner: temporalWorkflowId }).delete()).toBeGreaterThan(0);

    // Timed from the first failed read, which the first look makes: even with no time allowed it gives up only at the next.
    await watchdog(5, { unreadableOutcomeMs: 0 });
    expect((await runRecord(runId)).status).toBe('running');
    await watchdog(5, { unreadableOutcomeMs: 0 });
    const given = await runRecord(runId);
    expect(given).toMatchObject({ status: 'failed', error: { code: 'RUN_ABANDONED' } });
    expect(given.error.message).toMatch(/^The run's workflow completed, and its outcome could not be read: /);
    // Its workflow completed, so its action ran: the reservation stays charged.
    expect(await usage()).toBe(usedBefore + 1);
    expect(counted).toContainEqual(['manual', 'failed']);
  });

  it('a run whose workflow ended without recording its outcome is recorded failed (RUN_ABANDONED)', async () => {
    const automation = await client.create(chain('Terminated', [{ id: 'wait', type: 'action.delay', params: { seconds: 600 } }]));
    const run = (await client.wf(`/workflows/${automation.id}/test`, { method: 'POST', body: {} })).body.data;
    const handle = app.deps.temporal.client.workflow.getHandle(`automation-manual-${run.id}`);
    await until('the delay', async () => (await handle.fetchHistory()).events?.some((event) => event.timerStartedEventAttributes));
    await handle.terminate('an operator of Temporal, by hand');
    await until('the watchdog', async () => {
      await watchdog(5);
      return (await runRecord(run.id)).status !== 'running';
    });
    expect((await client.wf(`/runs/${run.id}`)).body.data).toMatchObject({
      status: 'failed',
      error: { code: 'RUN_ABANDONED', message: "The run's workflow ended (terminated) without recording an outcome" },
    });
  });
});
