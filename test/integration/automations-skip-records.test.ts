import { insertCappedTriggerSkips, RUN_CONTROL_SKIPS_PER_MINUTE, type TriggerSkip } from '../../db/queries/triggerSkips';
import { isSealedText } from '../../core/sealedText';
import { eventRunWorkflowId } from '../../temporal/automationRuns';
import { keyedLaneState, laneWorkflowId } from '../../temporal/keyedRuns';
import { automationLaneWorkflow, laneTriggerSignal } from '../../workflows/automationLane';
import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, waitForRuns, type AutomationsClient } from '../helpers/automations';

/**
 * What run control holds back is kept as skipped-trigger records (docs/workflows.md "Skipped triggers"): each
 * throttled, debounced or busy trigger with its reason, event, key (sealed) and rule, through the lane's
 * `recordLaneSkips` activity; at most RUN_CONTROL_SKIPS_PER_MINUTE per automation per minute, the rest counted.
 * Every case has its own operator.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function operatorWithPlayer(): Promise<AutomationsClient> {
  const client = await automationsClient(app);
  const created = await client.call('/entities', { method: 'POST', body: { externalId: 'p-1', entityType: 'player', data: { country: 'MT' } } });
  expect(created.status).toBe(201);
  return client;
}

function onDeposits(name: string, runControl: unknown) {
  return {
    name,
    nodes: [
      { id: 'start', type: 'trigger.event', params: { event: 'entity_event.transaction' } },
      { id: 'wait', type: 'action.delay', params: { seconds: 2 } },
    ],
    edges: [{ from: 'start', to: 'wait' }],
    run_control: runControl,
  };
}

/** `count` deposits for p-1, one after another; answers their outbox event ids in order. */
async function deposits(client: AutomationsClient, count: number): Promise<string[]> {
  for (let amount = 1; amount <= count; amount += 1) {
    const written = await client.call('/entities/p-1/events', {
      method: 'POST',
      body: { eventType: 'transaction', data: { type: 'deposit', amount, currency: 'EUR' } },
    });
    expect(written.status).toBe(201);
  }
  const rows = await app.deps
    .db('outbox_events')
    .where({ operator_id: client.operator.operatorId, event: 'entity_event.transaction' })
    .orderBy('seq')
    .select<Array<{ id: string }>>('id');
  expect(rows).toHaveLength(count);
  return rows.map((row) => row.id);
}

/** Polls the skipped triggers of `workflowId` until there are `count`, oldest first. */
async function skipsOf(client: AutomationsClient, workflowId: string, count: number, query = ''): Promise<any[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const response = await client.wf(`/workflows/${workflowId}/skipped-triggers?limit=100${query}`);
    expect(response.status).toBe(200);
    if (response.body.data.length >= count) return [...response.body.data].reverse();
    if (Date.now() > deadline) throw new Error(`only ${response.body.data.length} of ${count} skipped triggers: ${JSON.stringify(response.body.data)}`);
    await sleep(150);
  }
}

describe('run control leaves a record of what it held back', () => {
  it('throttled: each trigger over the throttle, with its event, key, rule and time; sealed at rest; not for another operator', async () => {
    const [acme, rival] = await Promise.all([operatorWithPlayer(), operatorWithPlayer()]);
    const automation = await acme.create(onDeposits('Throttled', { throttle: { limit: 2, period_seconds: 60 } }));
    const before = Date.now();
    const events = await deposits(acme, 5);
    const skips = await skipsOf(acme, automation.id, 3);
    expect(skips.map((skip) => skip.event_id).sort()).toEqual(events.slice(2).sort());
    for (const skip of skips) {
      expect(skip).toMatchObject({
        workflow_version: 1,
        node_id: 'start',
        event: 'entity_event.transaction',
        reason: 'throttled',
        code: 'THROTTLED',
        key: 'p-1',
        message: 'Over the throttle: 2 triggers per 60 s for this key',
      });
      expect(Date.parse(skip.created_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(skip.created_at)).toBeLessThanOrEqual(Date.now());
    }
    const runs = await waitForRuns(acme, automation.id, 2);
    expect(runs.map((run) => run.input.id).sort()).toEqual(events.slice(0, 2).sort());

    // Filtered by reason; the key and message sealed in the table.
    expect((await acme.wf(`/workflows/${automation.id}/skipped-triggers?reason=throttled`)).body.data).toHaveLength(3);
    expect((await acme.wf(`/workflows/${automation.id}/skipped-triggers?reason=debounced`)).body.data).toEqual([]);
    const stored = await app.deps.db('automation_trigger_skips').where({ automation_id: automation.id }).select('run_key', 'message');
    expect(stored).toHaveLength(3);
    for (const row of stored) {
      // Sealed, not matched against `p-1`: three characters occur in base64 by chance.
      expect(isSealedText(row.run_key)).toBe(true);
      expect(row.message).not.toContain('throttle');
    }

    // Operator B: 404 on A's workflow, and nothing of A's under its own workflow of the same shape.
    expect(await rival.wf(`/workflows/${automation.id}/skipped-triggers`)).toMatchObject({ status: 404, body: { error: { code: 'WORKFLOW_NOT_FOUND' } } });
    expect(await rival.wf(`/workflows/${automation.id}/skipped-triggers?reason=throttled`)).toMatchObject({ status: 404 });
    const own = await rival.create(onDeposits('Throttled too', { throttle: { limit: 2, period_seconds: 60 } }));
    expect((await rival.wf(`/workflows/${own.id}/skipped-triggers`)).body.data).toEqual([]);
  });

  it('debounced: each trigger superseded by a later event of the same key, naming that event', async () => {
    const acme = await operatorWithPlayer();
    const automation = await acme.create(onDeposits('Debounced', { debounce: { quiet_seconds: 2 } }));
    const events = await deposits(acme, 5);
    const [run] = await waitForRuns(acme, automation.id, 1);
    expect(run.input.id).toBe(events[4]);
    const skips = await skipsOf(acme, automation.id, 4, '&reason=debounced');
    const byEvent = new Map(skips.map((skip) => [skip.event_id, skip]));
    expect([...byEvent.keys()].sort()).toEqual(events.slice(0, 4).sort());
    events.slice(0, 4).forEach((eventId, index) => {
      expect(byEvent.get(eventId)).toMatchObject({
        reason: 'debounced',
        code: 'DEBOUNCED',
        key: 'p-1',
        node_id: 'start',
        message: `Superseded by a later event of the same key (${events[index + 1]}) within the debounce of 2 s`,
      });
    });
  });

  it("busy: each trigger that found the key's one run going, under when_busy skip", async () => {
    const acme = await operatorWithPlayer();
    const automation = await acme.create(onDeposits('One at a time', { concurrency: { limit: 1, when_busy: 'skip' } }));
    const events = await deposits(acme, 4);
    const skips = await skipsOf(acme, automation.id, 3);
    expect(skips.map((skip) => skip.event_id).sort()).toEqual(events.slice(1).sort());
    expect(skips.every((skip) => skip.reason === 'busy' && skip.code === 'BUSY')).toBe(true);
    expect(skips[0].message).toBe("Skipped: the key's runs were all busy (1 run at a time per key, when busy: skip)");
  });
});

describe('a lane that continues as new', () => {
  it('records what it held back in each run; a trigger sent without its key or version gets the workflow’s version', async () => {
    const acme = await operatorWithPlayer();
    const control = { throttle: { limit: 1, period_seconds: 60 } };
    const automation = await acme.create(onDeposits('Long throttle', control));
    const lane = { operatorId: acme.operator.operatorId, automationId: automation.id, key: 'p-1' };
    const trigger = (eventId: string) => ({
      eventId,
      runWorkflowId: eventRunWorkflowId(automation.id, eventId),
      run: {
        operatorId: lane.operatorId,
        automationId: automation.id,
        source: 'event' as const,
        input: {
          id: eventId,
          event: 'entity_event.transaction',
          operatorId: lane.operatorId,
          entity: { id: 'x', externalId: 'p-1', entityType: 'player' },
          data: {},
        },
        triggerNodeId: 'start',
      },
      control,
    });
    // Started by hand with a short run length (as a lane from before the key and version were sent), so the deposits below cross a continue-as-new.
    const handle = await app.deps.temporal.client.workflow.signalWithStart(automationLaneWorkflow, {
      taskQueue: app.deps.temporal.taskQueue,
      workflowId: laneWorkflowId(lane),
      args: [{ operatorId: lane.operatorId, automationId: automation.id, triggersPerRun: 2 }],
      signal: laneTriggerSignal,
      signalArgs: [trigger('evt_hand_1')],
    });
    await handle.signal(laneTriggerSignal, trigger('evt_hand_2'));
    const [hand] = await skipsOf(acme, automation.id, 1);
    expect(hand).toMatchObject({ event_id: 'evt_hand_2', reason: 'throttled', workflow_version: 1, key: null, node_id: 'start' });
    await waitForRuns(acme, automation.id, 1);
    const events = await deposits(acme, 3);
    const skips = await skipsOf(acme, automation.id, 4);
    expect(skips.map((skip) => skip.event_id).sort()).toEqual(['evt_hand_2', ...events].sort());
    const history = await app.deps.temporal.client.workflow.getHandle(laneWorkflowId(lane)).fetchHistory();
    expect(history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId).toBeTruthy();
    expect((await keyedLaneState(app.deps.temporal, lane))?.counts).toMatchObject({ started: 1, throttled: 4 });
  });
});

describe('bounded', () => {
  it(`records at most ${RUN_CONTROL_SKIPS_PER_MINUTE} per automation per minute; the lane counts the rest as unrecorded`, async () => {
    const acme = await operatorWithPlayer();
    const automation = await acme.create(onDeposits('Flooded', { throttle: { limit: 1, period_seconds: 60 } }));
    const total = RUN_CONTROL_SKIPS_PER_MINUTE + 6;
    await deposits(acme, total);
    const lane = { operatorId: acme.operator.operatorId, automationId: automation.id, key: 'p-1' };
    const deadline = Date.now() + 30_000;
    let counts = (await keyedLaneState(app.deps.temporal, lane))?.counts;
    while ((counts?.throttled ?? 0) < total - 1 || (counts?.unrecorded ?? 0) < total - 1 - RUN_CONTROL_SKIPS_PER_MINUTE) {
      if (Date.now() > deadline) throw new Error(`lane never settled: ${JSON.stringify(counts)}`);
      await sleep(200);
      counts = (await keyedLaneState(app.deps.temporal, lane))?.counts;
    }
    expect(counts).toMatchObject({ started: 1, throttled: total - 1, unrecorded: total - 1 - RUN_CONTROL_SKIPS_PER_MINUTE });
    const stored = await app.deps.db('automation_trigger_skips').where({ automation_id: automation.id }).select('id');
    expect(stored).toHaveLength(RUN_CONTROL_SKIPS_PER_MINUTE);
  });

  it('counts every record of the minute, across calls, and only the automation’s own', async () => {
    const acme = await operatorWithPlayer();
    const [one, two] = await Promise.all([
      acme.create(onDeposits('One', { throttle: { limit: 1, period_seconds: 60 } })),
      acme.create(onDeposits('Two', { throttle: { limit: 1, period_seconds: 60 } })),
    ]);
    const operatorId = acme.operator.operatorId;
    const skip = (automationId: string, n: number): TriggerSkip => ({
      operatorId,
      automationId,
      automationVersion: 1,
      nodeId: 'start',
      eventId: `evt_cap_${n}`,
      event: 'entity_event.transaction',
      reason: 'throttled',
      code: 'THROTTLED',
      sealedMessage: 'sealed',
    });
    const batch = (automationId: string, from: number, n: number) => Array.from({ length: n }, (_, index) => skip(automationId, from + index));
    expect(await insertCappedTriggerSkips(app.deps.db, { operatorId, automationId: one.id }, batch(one.id, 0, 5), 8)).toEqual({ recorded: 5, left: 0 });
    expect(await insertCappedTriggerSkips(app.deps.db, { operatorId, automationId: one.id }, batch(one.id, 5, 5), 8)).toEqual({ recorded: 3, left: 2 });
    expect(await insertCappedTriggerSkips(app.deps.db, { operatorId, automationId: one.id }, batch(one.id, 10, 1), 8)).toEqual({ recorded: 0, left: 1 });
    // Another automation's minute is its own; a record older than the minute does not count.
    expect(await insertCappedTriggerSkips(app.deps.db, { operatorId, automationId: two.id }, batch(two.id, 0, 2), 8)).toEqual({ recorded: 2, left: 0 });
    await app.deps
      .db('automation_trigger_skips')
      .where({ automation_id: one.id })
      .update({ created_at: app.deps.db.raw("now() - interval '61 seconds'") });
    expect(await insertCappedTriggerSkips(app.deps.db, { operatorId, automationId: one.id }, batch(one.id, 20, 9), 8)).toEqual({ recorded: 8, left: 1 });
  });
});
