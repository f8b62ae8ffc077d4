import { randomUUID } from 'node:crypto';
import { createRunWaitActivities } from '../../activities/automation/waits';
import { signalWaitingRun } from '../../temporal/runWaits';
import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, type AutomationsClient } from '../helpers/automations';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp';
import { rawHistory } from '../helpers/temporalHistory';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

/**
 * `action.wait_for_event` end to end: runs on a worker of their own (SMTP on loopback), started by hand with the
 * player as the trigger's entity; events written through the data API reach them through the shared worker's
 * outbox dispatcher (worker/runWaitSignals.ts) as Temporal signals.
 */
describe('action.wait_for_event', () => {
  const queue = `wait-for-event-${randomUUID()}`;
  let smtp: TestSmtpServer;
  let worker: WorkerProcess;
  let app: TestApp;
  let acme: AutomationsClient;
  let globex: AutomationsClient;

  /** Deposit → tag the player; timeout → a reminder email; a withdrawal does not count. */
  const journey = (name: string, timeoutSeconds: number, email: string) => ({
    name,
    nodes: [
      { id: 'start', type: 'trigger.manual', params: {} },
      {
        id: 'deposit',
        type: 'action.wait_for_event',
        params: { event: 'entity_event.transaction', filter: 'event.data.type = "deposit"', timeoutSeconds },
      },
      { id: 'tag', type: 'action.set_state', params: { externalId: '{{ trigger.entity.externalId }}', key: 'loyalty_tier', value: 'depositor' } },
      {
        id: 'remind',
        type: 'action.send_email',
        params: { to: email, subject: 'Still there?', text: 'Player {{ trigger.entity.externalId }} has not deposited' },
      },
    ],
    edges: [
      { from: 'start', to: 'deposit' },
      { from: 'deposit', to: 'tag', when: true },
      { from: 'deposit', to: 'remind', when: false },
    ],
  });

  const player = async (client: AutomationsClient, externalId: string) =>
    expect((await client.call('/entities', { method: 'POST', body: { externalId, entityType: 'player', data: {} } })).status).toBe(201);

  const transaction = async (client: AutomationsClient, externalId: string, type: string) => {
    const response = await client.call(`/entities/${externalId}/events`, {
      method: 'POST',
      body: { eventType: 'transaction', data: { type, amount: 5000, currency: 'EUR' } },
    });
    expect(response.status).toBe(201);
    return response.body.data.id as string;
  };

  /** Starts a run by hand for `externalId` and returns it once it waits (its wait row is stored). */
  const startWaiting = async (client: AutomationsClient, workflowId: string, externalId: string) => {
    const started = await client.wf(`/workflows/${workflowId}/test`, { method: 'POST', body: { entity: { externalId } } });
    expect(started.status).toBe(202);
    const runId = started.body.data.id as string;
    await until(async () => (await waitRows(runId)).length === 1);
    return (await client.wf(`/runs/${runId}`)).body.data as { id: string; temporalWorkflowId: string };
  };

  const waitRows = (runId: string) => app.deps.db('automation_run_waits').where({ run_id: runId });

  /**
   * The run's wait rows once its workflow has closed. A run's status can read completed a moment before that: when an
   * event arrives during the task that ends the run, Temporal refuses the task's completion and the worker runs the task
   * again, its local activities (registering the wait, removing it) included.
   */
  const waitRowsOnceClosed = async (run: { id: string; temporalWorkflowId: string }) => {
    const handle = app.deps.temporal.client.workflow.getHandle(run.temporalWorkflowId);
    await until(async () => (await handle.describe()).status.name !== 'RUNNING');
    return waitRows(run.id);
  };

  const finished = async (client: AutomationsClient, runId: string, timeoutMs = 20_000) => {
    let run: any;
    await until(async () => {
      run = (await client.wf(`/runs/${runId}`)).body.data;
      return run.status !== 'running';
    }, timeoutMs);
    return run;
  };

  const running = async (client: AutomationsClient, runId: string) => (await client.wf(`/runs/${runId}`)).body.data.status === 'running';

  /** The outbox row of an event, once the dispatcher is done with it. */
  const dispatched = async (operatorId: string, externalId: string, event: string) => {
    await until(async () => {
      const rows = await app.deps.db.raw(
        `SELECT o.dispatched_at FROM outbox_events o JOIN entities n ON n.id = o.entity_id AND n.operator_id = o.operator_id
          WHERE o.operator_id = ? AND n.external_id = ? AND o.event = ? ORDER BY o.seq DESC LIMIT 1`,
        [operatorId, externalId, event],
      );
      return rows.rows[0]?.dispatched_at !== null && rows.rows[0]?.dispatched_at !== undefined;
    });
  };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    worker = await spawnWorker({ TEMPORAL_TASK_QUEUE: queue, SMTP_URL: smtp.url });
    app = await startTestApp({ TEMPORAL_TASK_QUEUE: queue, WORKFLOW_TEST_WAIT_MS: '300' });
    acme = await automationsClient(app);
    globex = await automationsClient(app);
  });
  afterAll(async () => {
    await app?.close();
    await worker?.stop();
    await smtp?.close();
  });

  it('a deposit arriving while the run waits continues it along when: true; the wait row is gone', async () => {
    await player(acme, 'p-dep');
    const workflow = await acme.create(journey('Deposit journey', 600, 'crm@example.test'));
    const run = await startWaiting(acme, workflow.id, 'p-dep');
    const eventId = await transaction(acme, 'p-dep', 'deposit');

    const done = await finished(acme, run.id);
    expect(done.status).toBe('completed');
    const [, wait, tag, remind] = done.nodes;
    expect(wait).toMatchObject({
      id: 'deposit',
      status: 'completed',
      output: {
        happened: 'event',
        event: { id: expect.any(String), event: 'entity_event.transaction', occurredAt: ISO, data: { type: 'deposit', amount: 5000, eventId } },
      },
    });
    expect(tag).toMatchObject({ id: 'tag', status: 'completed' });
    expect(remind).toMatchObject({ id: 'remind', status: 'skipped' });
    expect(await waitRowsOnceClosed(run)).toEqual([]);
  });

  it('without an event the wait times out along when: false and the reminder goes out through SMTP', async () => {
    await player(acme, 'p-quiet');
    const workflow = await acme.create(journey('Quiet journey', 2, 'reminder-quiet@example.test'));
    const run = await startWaiting(acme, workflow.id, 'p-quiet');
    const done = await finished(acme, run.id);
    expect(done.status).toBe('completed');
    expect(done.nodes.map((node: any) => [node.id, node.status])).toEqual([
      ['start', 'completed'],
      ['deposit', 'completed'],
      ['tag', 'skipped'],
      ['remind', 'completed'],
    ]);
    expect(done.nodes[1].output).toEqual({ happened: 'timeout' });
    const mail = await smtp.waitFor('reminder-quiet@example.test');
    expect(mail.text).toContain('Player p-quiet has not deposited');
    expect(await waitRowsOnceClosed(run)).toEqual([]);
  });

  it('an event the filter refuses keeps the run waiting; the next one that passes ends the wait', async () => {
    await player(acme, 'p-filter');
    const workflow = await acme.create(journey('Filtered journey', 600, 'crm@example.test'));
    const run = await startWaiting(acme, workflow.id, 'p-filter');
    await transaction(acme, 'p-filter', 'withdrawal');
    await dispatched(acme.operator.operatorId, 'p-filter', 'entity_event.transaction');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await running(acme, run.id)).toBe(true);
    expect(await waitRows(run.id)).toHaveLength(1);

    const depositId = await transaction(acme, 'p-filter', 'deposit');
    const done = await finished(acme, run.id);
    expect(done.nodes[1].output).toMatchObject({ happened: 'event', event: { data: { type: 'deposit', eventId: depositId } } });
  });

  it("another operator's event for a player with the same externalId wakes only that operator's run", async () => {
    await player(acme, 'p-shared');
    await player(globex, 'p-shared');
    const mine = await startWaiting(acme, (await acme.create(journey('Acme journey', 600, 'crm@example.test'))).id, 'p-shared');
    const theirs = await startWaiting(globex, (await globex.create(journey('Globex journey', 600, 'crm@example.test'))).id, 'p-shared');

    await transaction(globex, 'p-shared', 'deposit');
    expect((await finished(globex, theirs.id)).nodes[1].output).toMatchObject({ happened: 'event' });
    await dispatched(globex.operator.operatorId, 'p-shared', 'entity_event.transaction');
    expect(await running(acme, mine.id)).toBe(true);

    // A forged signal naming the other operator's event is checked by the run and refused as well.
    const [row] = await app.deps
      .db('outbox_events')
      .where({ operator_id: globex.operator.operatorId, event: 'entity_event.transaction' })
      .orderBy('seq', 'desc')
      .limit(1);
    await signalWaitingRun(app.deps.temporal, mine.temporalWorkflowId, { nodeId: 'deposit', eventId: row.id, seq: String(row.seq) });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await running(acme, mine.id)).toBe(true);

    await transaction(acme, 'p-shared', 'deposit');
    expect((await finished(acme, mine.id)).nodes[1].output).toMatchObject({ happened: 'event' });
  });

  it('the wait of a run that ended without removing it (terminated) is removed at its next event', async () => {
    await player(acme, 'p-gone');
    const run = await startWaiting(acme, (await acme.create(journey('Terminated journey', 600, 'crm@example.test'))).id, 'p-gone');
    await app.deps.temporal.client.workflow.getHandle(run.temporalWorkflowId).terminate('test');
    expect(await waitRows(run.id)).toHaveLength(1);
    await transaction(acme, 'p-gone', 'deposit');
    await until(async () => (await waitRows(run.id)).length === 0);
  });

  it("registration answers the entity's matching events recorded since the wait began, and only the operator's own", async () => {
    await player(acme, 'p-gap');
    await player(globex, 'p-gap');
    const since = new Date(Date.now() - 1_000).toISOString();
    const mine = await transaction(acme, 'p-gap', 'deposit');
    await transaction(globex, 'p-gap', 'deposit');
    const { db, config, logger, keyring } = app.deps;
    const activities = createRunWaitActivities({ db, config, logger, keyring });
    const wait = { operatorId: acme.operator.operatorId, runId: 'run_gap', nodeId: 'deposit', event: 'entity_event.transaction', externalId: 'p-gap' };
    const until = new Date(Date.now() + 60_000).toISOString();
    const { candidates } = await activities.registerRunWait({ ...wait, temporalWorkflowId: 'automation-manual-run_gap', since, until });
    expect(candidates).toHaveLength(1);
    const loaded = await activities.loadWaitedEvent({ ...wait, candidate: candidates[0]!, since });
    expect(loaded).toMatchObject({ event: 'entity_event.transaction', data: { type: 'deposit', eventId: mine } });
    // The same event read for another operator, or for a wait that began after it, is nobody's.
    expect(await activities.loadWaitedEvent({ ...wait, operatorId: globex.operator.operatorId, candidate: candidates[0]!, since })).toBeNull();
    expect(await activities.loadWaitedEvent({ ...wait, candidate: candidates[0]!, since: until })).toBeNull();
    await activities.endRunWait(wait);
    expect(await waitRows('run_gap')).toEqual([]);
  });

  it('the same event delivered twice is looked at once, and the run continues once', async () => {
    await player(acme, 'p-twice');
    const workflow = await acme.create(journey('Twice journey', 600, 'crm@example.test'));
    const run = await startWaiting(acme, workflow.id, 'p-twice');
    await transaction(acme, 'p-twice', 'withdrawal');
    await dispatched(acme.operator.operatorId, 'p-twice', 'entity_event.transaction');
    const [withdrawal] = await app.deps
      .db('outbox_events')
      .where({ operator_id: acme.operator.operatorId, event: 'entity_event.transaction' })
      .orderBy('seq', 'desc')
      .limit(1);
    const again = { nodeId: 'deposit', eventId: withdrawal.id, seq: String(withdrawal.seq) };
    await signalWaitingRun(app.deps.temporal, run.temporalWorkflowId, again);
    await signalWaitingRun(app.deps.temporal, run.temporalWorkflowId, again);

    await transaction(acme, 'p-twice', 'deposit');
    const [deposit] = await app.deps
      .db('outbox_events')
      .where({ operator_id: acme.operator.operatorId, event: 'entity_event.transaction' })
      .orderBy('seq', 'desc')
      .limit(1);
    await until(async () => !(await running(acme, run.id)));
    // The record is stored by the run's last local activity, just before its workflow closes.
    const handle = app.deps.temporal.client.workflow.getHandle(run.temporalWorkflowId);
    await until(async () => (await handle.describe()).status.name !== 'RUNNING');
    // Delivered again after the wait ended: the run has closed, nothing happens.
    expect(await signalWaitingRun(app.deps.temporal, run.temporalWorkflowId, { nodeId: 'deposit', eventId: deposit.id, seq: String(deposit.seq) })).toBe(
      'not_running',
    );

    const done = await finished(acme, run.id);
    expect(done.nodes.map((node: any) => [node.id, node.status])).toEqual([
      ['start', 'completed'],
      ['deposit', 'completed'],
      ['tag', 'completed'],
      ['remind', 'skipped'],
    ]);
    const { history } = await rawHistory(app, run.temporalWorkflowId);
    const signals = history.events!.filter((event) => event.workflowExecutionSignaledEventAttributes).length;
    // A local activity's marker names its activity type in plain JSON (the Temporal SDK's own, not a platform payload).
    const markers = history.events!.flatMap((event) => event.markerRecordedEventAttributes?.details?.data?.payloads ?? []);
    const loads = markers.filter((payload) =>
      Buffer.from(payload.data ?? [])
        .toString('utf8')
        .includes('"loadWaitedEvent"'),
    ).length;
    expect(signals).toBeGreaterThanOrEqual(4);
    expect(loads).toBe(2);
  });
});

async function until(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
