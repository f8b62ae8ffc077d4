import { compileProblem } from '../../core/automations/expressions';
import { eventRunWorkflowId } from '../../temporal/automationRuns';
import { keyedLaneState, laneWorkflowId } from '../../temporal/keyedRuns';
import { automationLaneWorkflow, laneTriggerSignal } from '../../workflows/automationLane';
import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, waitForRuns, type AutomationsClient } from '../helpers/automations';

/**
 * Run control (docs/workflows.md "Run control"): per-key concurrency (skip, queue, replace), throttle, debounce and
 * cancel-on-event of event runs, through each key's lane workflow. Every case has its own operator, so one case's
 * automations never see another's deposits.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fresh operator with players p-1 and p-2. */
async function operatorWithPlayers(): Promise<AutomationsClient> {
  const client = await automationsClient(app);
  for (const externalId of ['p-1', 'p-2']) {
    const created = await client.call('/entities', { method: 'POST', body: { externalId, entityType: 'player', data: { country: 'MT' } } });
    expect(created.status).toBe(201);
  }
  return client;
}

/** An automation on deposits (`entity_event.transaction`) that waits `seconds`, with `run_control`. */
function onDeposits(name: string, seconds: number, runControl: unknown, event = 'entity_event.transaction') {
  return {
    name,
    nodes: [
      { id: 'start', type: 'trigger.event', params: { event } },
      { id: 'wait', type: 'action.delay', params: { seconds } },
    ],
    edges: [{ from: 'start', to: 'wait' }],
    run_control: runControl,
  };
}

/** Five deposits for one player, one after another (amounts 1 to 5). */
async function burst(client: AutomationsClient, player = 'p-1', eventType = 'transaction') {
  for (let amount = 1; amount <= 5; amount += 1) {
    const written = await client.call(`/entities/${player}/events`, {
      method: 'POST',
      body: { eventType, data: { type: 'deposit', amount, currency: 'EUR' } },
    });
    expect(written.status).toBe(201);
  }
}

async function runsOf(client: AutomationsClient, workflowId: string): Promise<any[]> {
  const response = await client.wf(`/workflows/${workflowId}/runs?limit=100`);
  return response.body.data;
}

/** Waits until the run list satisfies `done`, then answers every run whole. */
async function until(client: AutomationsClient, workflowId: string, done: (runs: any[]) => boolean, timeoutMs = 30_000): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const runs = await runsOf(client, workflowId);
    if (done(runs)) return Promise.all(runs.map(async (run) => (await client.wf(`/runs/${run.id}`)).body.data));
    if (Date.now() > deadline) throw new Error(`runs never settled: ${JSON.stringify(runs.map((run) => run.status))}`);
    await sleep(150);
  }
}

const amountOf = (run: any) => run.input.data.amount;
const lane = (client: AutomationsClient, automationId: string, key = 'p-1') =>
  keyedLaneState(app.deps.temporal, { operatorId: client.operator.operatorId, automationId, key });

describe('validation', () => {
  let acme: AutomationsClient;
  beforeAll(async () => {
    acme = await automationsClient(app);
  });

  const refused = async (runControl: unknown, details: Array<{ field: string; message: string }>, body?: Record<string, unknown>) => {
    const response = await acme.wf('/workflows', { method: 'POST', body: body ?? onDeposits('Refused', 1, runControl) });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_FAILED',
        message: `Invalid workflow: ${details.map((problem) => `${problem.field}: ${problem.message}`).join('; ')}`,
        details,
      },
    });
  };

  it('names each field of a run_control it refuses', async () => {
    await refused({ concurrency: { limit: 1, when_busy: 'later' } }, [
      { field: 'run_control.concurrency.when_busy', message: 'must be one of queue, skip, replace' },
    ]);
    await refused({ concurrency: { limit: 0, when_busy: 'skip' } }, [{ field: 'run_control.concurrency.limit', message: 'must be an integer from 1 to 100' }]);
    await refused({ throttle: { limit: 2, period_seconds: 86_401 } }, [
      { field: 'run_control.throttle.period_seconds', message: 'must be an integer from 1 to 86400' },
    ]);
    await refused({ throttle: { limit: 10_001, period_seconds: 60 } }, [
      { field: 'run_control.throttle.limit', message: 'must be an integer from 1 to 10000' },
    ]);
    await refused({ debounce: { quiet_seconds: 1.5 } }, [{ field: 'run_control.debounce.quiet_seconds', message: 'must be an integer from 1 to 86400' }]);
    await refused({ cancel_on: ['entity_event.transaction', 'no spaces'] }, [
      { field: 'run_control.cancel_on[1]', message: 'must be an event name such as entity_event.transaction' },
    ]);
    await refused({ cancel_on: [] }, [{ field: 'run_control.cancel_on', message: 'must be an array of 1 to 20 event names' }]);
    await refused({ key: 'trigger.entity.', concurrency: { limit: 1, when_busy: 'skip' } }, [
      { field: 'run_control.key', message: compileProblem('trigger.entity.')! },
    ]);
    await refused({ key: '{"a": {"b": trigger.data.amount}}', concurrency: { limit: 1, when_busy: 'skip' } }, [
      { field: 'run_control.key', message: 'must not contain }} (write } } inside object constructors)' },
    ]);
    await refused({ concurrency: { limit: 1, when_busy: 'skip' }, extra: true }, [{ field: 'run_control.extra', message: 'unknown field' }]);
    await refused('one', [{ field: 'run_control', message: 'must be an object' }]);
  });

  it('refuses a run_control that controls nothing, debounce with replace, and one on a workflow without event triggers', async () => {
    await refused({}, [{ field: 'run_control', message: 'must set at least one of concurrency, throttle, debounce, cancel_on (or be null)' }]);
    await refused({ key: 'trigger.data.table' }, [
      { field: 'run_control', message: 'must set at least one of concurrency, throttle, debounce, cancel_on (or be null)' },
    ]);
    await refused({ debounce: { quiet_seconds: 5 }, concurrency: { limit: 1, when_busy: 'replace' } }, [
      { field: 'run_control.concurrency.when_busy', message: 'cannot be replace with debounce (a debounce already keeps only the last trigger)' },
    ]);
    await refused(null, [{ field: 'run_control', message: 'controls runs started by events: the workflow needs a trigger.event node' }], {
      name: 'Manual',
      nodes: [{ id: 'start', type: 'trigger.manual' }],
      run_control: { concurrency: { limit: 1, when_busy: 'skip' } },
    });
  });

  it('stores run_control with the definition: shown, versioned, removable with null', async () => {
    const control = { key: 'trigger.entity.externalId', concurrency: { limit: 2, when_busy: 'queue' }, cancel_on: ['entity_event.support'] };
    const created = await acme.create(onDeposits('Stored', 1, control));
    expect(created).toMatchObject({ version: 1, run_control: control });
    expect((await acme.wf(`/workflows/${created.id}`)).body.data.run_control).toEqual(control);
    const stored = await app.deps.db('automations').where({ id: created.id }).first();
    expect(stored.trigger_events.sort()).toEqual(['entity_event.support', 'entity_event.transaction']);

    const same = await acme.wf(`/workflows/${created.id}`, { method: 'PUT', body: { ...created, layout: { start: { x: 1, y: 2 } } } });
    expect(same.body.data.version).toBe(1);
    const changed = await acme.wf(`/workflows/${created.id}`, {
      method: 'PUT',
      body: { ...created, run_control: { ...control, concurrency: { limit: 1, when_busy: 'skip' } } },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ version: 2, run_control: { concurrency: { limit: 1, when_busy: 'skip' } } });
    const removed = await acme.wf(`/workflows/${created.id}`, { method: 'PUT', body: { ...created, run_control: null } });
    expect(removed.body.data).toMatchObject({ version: 3, run_control: null });
    expect((await app.deps.db('automations').where({ id: created.id }).first()).trigger_events).toEqual(['entity_event.transaction']);
    expect((await acme.create(onDeposits('Plain', 1, undefined))).run_control).toBeNull();
  });
});

describe('concurrency per key', () => {
  it('skip: a burst of five deposits for one player starts one run; the others are counted as skipped', async () => {
    const acme = await operatorWithPlayers();
    const automation = await acme.create(onDeposits('One at a time', 3, { concurrency: { limit: 1, when_busy: 'skip' } }));
    await burst(acme);
    const [run] = await waitForRuns(acme, automation.id, 1);
    expect(run).toMatchObject({ status: 'completed', temporalWorkflowId: expect.stringMatching(/^automation-event-/) });
    await sleep(1000);
    expect(await runsOf(acme, automation.id)).toHaveLength(1);
    expect((await lane(acme, automation.id))?.counts).toMatchObject({ started: 1, busy: 4 });
  });

  it('queue: five deposits make five runs one after another, in the order of the events, never two at once', async () => {
    const acme = await operatorWithPlayers();
    const automation = await acme.create(onDeposits('Queued', 1, { concurrency: { limit: 1, when_busy: 'queue' } }));
    await burst(acme);
    const runs = await until(acme, automation.id, (list) => list.length === 5 && list.every((run) => run.status !== 'running'), 40_000);
    const ordered = runs.sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
    expect(ordered.map((run) => run.status)).toEqual(Array(5).fill('completed'));
    expect(ordered.map(amountOf)).toEqual([1, 2, 3, 4, 5]);
    for (let index = 1; index < ordered.length; index += 1) {
      expect(Date.parse(ordered[index].startedAt)).toBeGreaterThanOrEqual(Date.parse(ordered[index - 1].completedAt));
    }
  });

  it('limit 2 / queue: never more than two at once for one player, while another player has slots of their own', async () => {
    const acme = await operatorWithPlayers();
    const automation = await acme.create(onDeposits('Two lanes', 1, { concurrency: { limit: 2, when_busy: 'queue' } }));
    await Promise.all([burst(acme, 'p-1'), burst(acme, 'p-2')]);
    const runs = await until(acme, automation.id, (list) => list.length === 10 && list.every((run) => run.status !== 'running'), 40_000);
    for (const player of ['p-1', 'p-2']) {
      const mine = runs.filter((run) => run.input.entity.externalId === player);
      expect(mine).toHaveLength(5);
      for (const run of mine) {
        const at = Date.parse(run.startedAt);
        const overlapping = mine.filter((other) => Date.parse(other.startedAt) <= at && Date.parse(other.completedAt) > at);
        expect(overlapping.length).toBeLessThanOrEqual(2);
      }
    }
  });

  it('replace: the first run is cancelled and the last deposit’s run completes', async () => {
    const acme = await operatorWithPlayers();
    const automation = await acme.create(onDeposits('Latest wins', 3, { concurrency: { limit: 1, when_busy: 'replace' } }));
    await burst(acme);
    const runs = await until(acme, automation.id, (list) => list.some((run) => run.status === 'completed') && list.every((run) => run.status !== 'running'));
    const ordered = runs.sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
    expect(ordered[0]).toMatchObject({ status: 'cancelled', error: { code: 'RUN_CANCELLED' } });
    expect(amountOf(ordered[0])).toBe(1);
    const completed = ordered.filter((run) => run.status === 'completed');
    expect(completed).toHaveLength(1);
    expect(amountOf(completed[0])).toBe(5);
    expect(ordered.at(-1)).toBe(completed[0]);
  });
});

describe('a lane that continues as new', () => {
  it('carries its queue, order and counts over: runs stay one after another', async () => {
    const acme = await operatorWithPlayers();
    const automation = await acme.create(onDeposits('Long queue', 1, { concurrency: { limit: 1, when_busy: 'queue' } }));
    const lane = { operatorId: acme.operator.operatorId, automationId: automation.id, key: 'p-1' };
    const first = {
      id: 'evt_first',
      event: 'entity_event.transaction',
      operatorId: lane.operatorId,
      occurredAt: new Date().toISOString(),
      entity: { id: 'x', externalId: 'p-1', entityType: 'player' },
      data: { amount: 0 },
    };
    // Started by hand with a short run length, so the burst below crosses several continue-as-new.
    await app.deps.temporal.client.workflow.signalWithStart(automationLaneWorkflow, {
      taskQueue: app.deps.temporal.taskQueue,
      workflowId: laneWorkflowId(lane),
      args: [{ operatorId: lane.operatorId, automationId: automation.id, triggersPerRun: 2 }],
      signal: laneTriggerSignal,
      signalArgs: [
        {
          eventId: first.id,
          runWorkflowId: eventRunWorkflowId(automation.id, first.id),
          run: { operatorId: lane.operatorId, automationId: automation.id, source: 'event', input: first, triggerNodeId: 'start' },
          control: { concurrency: { limit: 1, when_busy: 'queue' } },
        },
      ],
    });
    await burst(acme);
    const runs = await until(acme, automation.id, (list) => list.length === 6 && list.every((run) => run.status !== 'running'), 40_000);
    const ordered = runs.sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
    expect(ordered.map(amountOf)).toEqual([0, 1, 2, 3, 4, 5]);
    for (let index = 1; index < ordered.length; index += 1) {
      expect(Date.parse(ordered[index].startedAt)).toBeGreaterThanOrEqual(Date.parse(ordered[index - 1].completedAt));
    }
    const history = await app.deps.temporal.client.workflow.getHandle(laneWorkflowId(lane)).fetchHistory();
    expect(history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId).toBeTruthy();
    expect((await keyedLaneState(app.deps.temporal, lane))?.counts).toMatchObject({ started: 6 });
  });
});

describe('key', () => {
  it('groups triggers by a JSONata key (here the currency, across players); a key that fails starts nothing', async () => {
    const acme = await operatorWithPlayers();
    const byCurrency = await acme.create({ ...onDeposits('Per currency', 3, { key: 'trigger.data.currency', concurrency: { limit: 1, when_busy: 'skip' } }) });
    const failing = await acme.create({ ...onDeposits('Broken key', 1, { key: '$error("no key")', concurrency: { limit: 1, when_busy: 'skip' } }) });
    await burst(acme, 'p-1');
    await burst(acme, 'p-2');
    const [run] = await waitForRuns(acme, byCurrency.id, 1);
    expect(run.input.entity.externalId).toBe('p-1');
    await sleep(1000);
    expect(await runsOf(acme, byCurrency.id)).toHaveLength(1);
    expect((await lane(acme, byCurrency.id, 'EUR'))?.counts).toMatchObject({ started: 1, busy: 9 });
    expect(await runsOf(acme, failing.id)).toHaveLength(0);
  });
});

describe('throttle and debounce', () => {
  it('throttle 2 per period: five deposits start two runs', async () => {
    const acme = await operatorWithPlayers();
    const automation = await acme.create(onDeposits('Throttled', 1, { throttle: { limit: 2, period_seconds: 60 } }));
    await burst(acme);
    const runs = await waitForRuns(acme, automation.id, 2);
    expect(runs.map(amountOf).sort()).toEqual([1, 2]);
    await sleep(1500);
    expect(await runsOf(acme, automation.id)).toHaveLength(2);
    expect((await lane(acme, automation.id))?.counts).toMatchObject({ started: 2, throttled: 3 });
  });

  it('debounce: one run, with the last deposit, after the quiet period', async () => {
    const acme = await operatorWithPlayers();
    const automation = await acme.create(onDeposits('Debounced', 1, { debounce: { quiet_seconds: 2 } }));
    const sent = Date.now();
    await burst(acme);
    const [run] = await waitForRuns(acme, automation.id, 1);
    expect(amountOf(run)).toBe(5);
    expect(Date.parse(run.startedAt) - sent).toBeGreaterThanOrEqual(2000);
    await sleep(2500);
    expect(await runsOf(acme, automation.id)).toHaveLength(1);
  });
});

describe('cancel_on', () => {
  it("ends the sleeping run about the player when the named event arrives, not another player's, nor on another operator's event", async () => {
    const [acme, rival] = await Promise.all([operatorWithPlayers(), operatorWithPlayers()]);
    const automation = await acme.create(onDeposits('Welcome', 600, { cancel_on: ['entity_event.transaction'] }, 'entity_event.session'));
    for (const player of ['p-1', 'p-2']) {
      expect((await acme.call(`/entities/${player}/events`, { method: 'POST', body: { eventType: 'session', data: { device: 'ios' } } })).status).toBe(201);
    }
    const running = await until(acme, automation.id, (list) => list.length === 2);
    const byPlayer = Object.fromEntries(running.map((run) => [run.input.entity.externalId, run]));

    // The rival's deposit for its own p-1 reaches none of acme's runs.
    expect(
      (await rival.call('/entities/p-1/events', { method: 'POST', body: { eventType: 'transaction', data: { type: 'deposit', amount: 9, currency: 'EUR' } } }))
        .status,
    ).toBe(201);
    await sleep(1500);
    expect((await acme.wf(`/runs/${byPlayer['p-1'].id}`)).body.data.status).toBe('running');

    expect(
      (await acme.call('/entities/p-1/events', { method: 'POST', body: { eventType: 'transaction', data: { type: 'deposit', amount: 10, currency: 'EUR' } } }))
        .status,
    ).toBe(201);
    const [cancelled] = await waitForRuns(acme, automation.id, 1);
    expect(cancelled).toMatchObject({ id: byPlayer['p-1'].id, status: 'cancelled', error: { code: 'RUN_CANCELLED' } });
    await sleep(1000);
    expect((await acme.wf(`/runs/${byPlayer['p-2'].id}`)).body.data.status).toBe('running');
    expect((await acme.wf(`/runs/${byPlayer['p-2'].id}/cancel`, { method: 'POST' })).status).toBe(202);

    // A cancel_on event for a key whose lane has ended finds nothing to cancel, and dispatch goes on.
    await until(acme, automation.id, (list) => list.every((run) => run.status !== 'running'));
    await sleep(500);
    expect(
      (await acme.call('/entities/p-1/events', { method: 'POST', body: { eventType: 'transaction', data: { type: 'deposit', amount: 11, currency: 'EUR' } } }))
        .status,
    ).toBe(201);
    expect((await acme.call('/entities/p-1/events', { method: 'POST', body: { eventType: 'session', data: { device: 'web' } } })).status).toBe(201);
    await until(acme, automation.id, (list) => list.length === 3);
  });
});
