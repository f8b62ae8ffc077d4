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
