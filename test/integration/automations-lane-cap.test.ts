import { internalEvent } from '../../core/events';
import { createLogger } from '../../core/logger';
import { ExpressionSandbox } from '../../sandbox/expressionSandbox';
import { startEventRun } from '../../temporal/automationRuns';
import { cancelKeyedRuns, laneRunning, laneWorkflowId, startKeyedRun } from '../../temporal/keyedRuns';
import { LaneCapError, LaneKeyCap } from '../../worker/laneKeys';
import { RunControlDispatch, controlOf, type ControlledEventRun } from '../../worker/runControl';
import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, type AutomationsClient } from '../helpers/automations';
import { eventually } from '../helpers/eventually';
import { rawHistory } from '../helpers/temporalHistory';

/**
 * The cap on live run-control keys per automation (docs/workflows.md "Run control", "Live keys"), with a cap of 2:
 * real lanes on the test's Temporal server, the count in PostgreSQL. The automations listen to an event nobody writes,
 * so the shared worker's dispatcher never hands them anything: every trigger here is the test's.
 */
const EVENT = 'entity_event.lane_cap_probe';
const CAP = 2;

let app: TestApp;
let sandbox: ExpressionSandbox;
let dispatch: RunControlDispatch;

beforeAll(async () => {
  app = await startTestApp();
  sandbox = new ExpressionSandbox({ timeoutMs: 1_000, memoryMb: 64, processes: 1 });
  const logger = createLogger('silent');
  dispatch = new RunControlDispatch({
    sandbox,
    logger,
    startRun: (input) => startEventRun(app.deps.temporal, input),
    startKeyed: (lane, trigger) => startKeyedRun(app.deps.temporal, lane, trigger),
    cancelKeyed: (lane) => cancelKeyedRuns(app.deps.temporal, lane),
    laneCap: new LaneKeyCap({ db: app.deps.db, logger, laneRunning: (laneId) => laneRunning(app.deps.temporal, laneId), cap: CAP }),
  });
});
afterAll(async () => {
  await sandbox?.close();
  await app?.close();
});

/** An automation keyed by `trigger.data.player`, debounced 1 s, whose run waits 1 s. */
async function keyedAutomation(client: AutomationsClient) {
  return client.create({
    name: 'Keyed by player',
    nodes: [
      { id: 'start', type: 'trigger.event', params: { event: EVENT } },
      { id: 'wait', type: 'action.delay', params: { seconds: 1 } },
    ],
    edges: [{ from: 'start', to: 'wait' }],
    run_control: { key: 'trigger.data.player', debounce: { quiet_seconds: 1 } },
  });
}

function triggerOf(client: AutomationsClient, automation: any, player: string): ControlledEventRun {
  const event = internalEvent(client.operator.operatorId, EVENT, null, { player });
  return {
    operatorId: client.operator.operatorId,
    automationId: automation.id,
    source: 'event',
    input: event,
    triggerNodeId: 'start',
    eventId: event.id,
    runControl: controlOf(automation)!,
  };
}

const counted = async (operatorId: string, workflowId: string) =>
  Number(((await app.deps.db('automation_lane_keys').where({ operator_id: operatorId, automation_id: workflowId }).count({ n: '*' })) as any)[0].n);

it('admits new keys up to the cap, pushes the next back until a lane ends, and counts each operator on its own', async () => {
  const [acme, rival] = await Promise.all([automationsClient(app), automationsClient(app)]);
  const mine = await keyedAutomation(acme);
  const theirs = await keyedAutomation(rival);
  const acmeOp = acme.operator.operatorId;

  expect(await dispatch.start(triggerOf(acme, mine, 'p-1'))).toBe('started');
  const p2 = triggerOf(acme, mine, 'p-2');
  expect(await dispatch.start(p2)).toBe('started');
  // A third key: refused while two lanes live, as a push-back (the dispatcher leaves its event in the outbox).
  const third = triggerOf(acme, mine, 'p-3');
  await expect(dispatch.start(third)).rejects.toBeInstanceOf(LaneCapError);
  // A key that already has its lane is always handed over: it replaces p-1's debounced trigger.
  const lastOfP1 = triggerOf(acme, mine, 'p-1');
  expect(await dispatch.start(lastOfP1)).toBe('started');
  expect(await counted(acmeOp, mine.id)).toBe(CAP);
  // Operator B's automation has keys of its own, whatever A's count.
  expect(await dispatch.start(triggerOf(rival, theirs, 'p-1'))).toBe('started');
  expect(await dispatch.start(triggerOf(rival, theirs, 'p-3'))).toBe('started');
  expect(await counted(rival.operator.operatorId, theirs.id)).toBe(CAP);

  // Once a lane has run its debounced trigger and ended, the third key is admitted (and still no more than the cap).
  await eventually(async () => {
    try {
      return (await dispatch.start(third)) === 'started';
    } catch (error) {
      if (error instanceof LaneCapError) return false;
      throw error;
    }
  }, 30_000);
  expect(await counted(acmeOp, mine.id)).toBeLessThanOrEqual(CAP);
  expect(await laneRunning(app.deps.temporal, laneWorkflowId({ operatorId: acmeOp, automationId: mine.id, key: 'p-3' }))).toBe(true);

  // Nothing lost: p-1's last trigger, p-2's and p-3's each start their run.
  await eventually(async () => {
    const rows = await app.deps.db('automation_runs').where({ operator_id: acmeOp, automation_id: mine.id }).select('id');
    return rows.length === 3;
  }, 30_000);
  const runs = await app.deps.db('automation_runs').where({ operator_id: acmeOp, automation_id: mine.id }).select('temporal_workflow_id');
  expect(runs.map((run: any) => run.temporal_workflow_id).sort()).toEqual(
    [lastOfP1.eventId, p2.eventId, third.eventId].map((id) => `automation-event-${mine.id}-${id}`).sort(),
  );
}, 90_000);

/** A cap of its own whose looks in Temporal are counted, on a clock the test moves. */
function watchedCap(clock: { now: number }) {
  const described: string[] = [];
  const cap = new LaneKeyCap({
    db: app.deps.db,
    logger: createLogger('silent'),
    laneRunning: (laneId) => {
      described.push(laneId);
      return laneRunning(app.deps.temporal, laneId);
    },
    cap: CAP,
    now: () => clock.now,
  });
  return { cap, described };
}

it('starts a new key as an automationLaneV3Workflow, which places its debounced run and stops counting once it ends: no look in Temporal, no patch marker', async () => {
  const acme = await automationsClient(app);
  const mine = await keyedAutomation(acme);
  const { cap, described } = watchedCap({ now: 0 });
  const scope = { operatorId: acme.operator.operatorId, automationId: mine.id };
  const own = new RunControlDispatch({
    sandbox,
    logger: createLogger('silent'),
    startRun: (input) => startEventRun(app.deps.temporal, input),
    startKeyed: (lane, trigger) => startKeyedRun(app.deps.temporal, lane, trigger),
    cancelKeyed: (lane) => cancelKeyedRuns(app.deps.temporal, lane),
    laneCap: cap,
  });
  expect(await own.start(triggerOf(acme, mine, 'p-1'))).toBe('started');
  expect(await own.start(triggerOf(acme, mine, 'p-2'))).toBe('started');
  expect(await counted(scope.operatorId, mine.id)).toBe(CAP);
  // Each lane debounces 1 s, runs its 1 s run and ends, taking its count with it.
  await eventually(async () => (await counted(scope.operatorId, mine.id)) === 0, 30_000);
  expect(described).toEqual([]);
  expect(await cap.admit(scope, laneWorkflowId({ ...scope, key: 'p-3' }))).toBe(true);
  expect(described).toEqual([]);

  // Its history: the V3 type, no `patched()` marker or search-attribute upsert; two local activities, the debounced run's
  // place before its start and the release. The count drops while the release runs; its marker lands with the task that
  // completes the lane, so wait for that.
  const laneId = laneWorkflowId({ ...scope, key: 'p-1' });
  await eventually(async () => !(await laneRunning(app.deps.temporal, laneId)), 30_000);
  const { history } = await rawHistory(app, laneId);
  const events = history.events ?? [];
  expect(events[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name).toBe('automationLaneV3Workflow');
  const markers = events.flatMap((event) => event.markerRecordedEventAttributes?.markerName ?? []);
  expect(markers).toEqual(['core_local_activity', 'core_local_activity']);
  const placed = events.findIndex((event) => event.markerRecordedEventAttributes);
  expect(placed).toBeGreaterThan(0);
  expect(placed).toBeLessThan(events.findIndex((event) => event.startChildWorkflowExecutionInitiatedEventAttributes));
  expect(events.filter((event) => event.upsertWorkflowSearchAttributesEventAttributes)).toEqual([]);
  expect(events.at(-1)?.workflowExecutionCompletedEventAttributes).toBeTruthy();
}, 60_000);

it('finds lanes that ended uncounted by describing them, and looks less often while it finds none', async () => {
  const acme = await automationsClient(app);
  const scope = { operatorId: acme.operator.operatorId, automationId: (await keyedAutomation(acme)).id };
  const clock = { now: 1_000_000 };
  const { cap, described } = watchedCap(clock);
  // Two counted lanes that are not running (as a lane terminated by hand leaves its count behind).
  const ghosts = ['ghost-1', 'ghost-2'].map((key) => laneWorkflowId({ ...scope, key }));
  await app.deps.db('automation_lane_keys').insert(ghosts.map((lane_id) => ({ operator_id: scope.operatorId, automation_id: scope.automationId, lane_id })));
  expect(await cap.admit(scope, laneWorkflowId({ ...scope, key: 'p-1' }))).toBe(true);
  expect([...described].sort()).toEqual([...ghosts].sort());
  expect(await counted(scope.operatorId, scope.automationId)).toBe(1);

  // At the cap with two live lanes (a 600 s debounce): a look, then 2, 4 and 8 s later while none has closed.
  const running = await keyedAutomation(acme);
  const live = { ...scope, automationId: running.id };
  const lanes = ['q-1', 'q-2'].map((key) => ({ ...live, key }));
  for (const lane of lanes) {
    const trigger = triggerOf(acme, running, lane.key);
    await startKeyedRun(app.deps.temporal, lane, {
      eventId: trigger.eventId,
      runWorkflowId: `automation-event-${running.id}-${trigger.eventId}`,
      run: { operatorId: live.operatorId, automationId: running.id, source: 'event', input: trigger.input, triggerNodeId: 'start' },
      control: { debounce: { quiet_seconds: 600 } },
      key: lane.key,
      workflowVersion: running.version,
    });
    expect(await cap.admit(live, laneWorkflowId(lane))).toBe(true);
  }
  described.length = 0;
  const looks: number[] = [];
  for (let second = 0; second <= 16; second += 1) {
    clock.now = 2_000_000 + second * 1000;
    const before = described.length;
    expect(await cap.admit(live, laneWorkflowId({ ...live, key: `new-${second}` }))).toBe(false);
    if (described.length > before) looks.push(second);
  }
  expect(looks).toEqual([0, 2, 6, 14]);
  for (const lane of lanes) await cancelKeyedRuns(app.deps.temporal, lane);
  // Cancelled, each lane ends and stops counting.
  await eventually(async () => (await counted(live.operatorId, live.automationId)) === 0, 30_000);
}, 60_000);
