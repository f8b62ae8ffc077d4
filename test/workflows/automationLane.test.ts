import { randomUUID } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import type { temporal } from '@temporalio/proto';
import type { LaneSkipsInput } from '../../activities/automation/laneSkips';
import type { RunControl } from '../../core/automations/runControl';
import type { BeginRunInput, BeginRunResult, FinishRunInput } from '../../core/workflowContracts';
import { eventually } from '../helpers/eventually';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** A lane type as the worker registers it: the V3 lane is the one that places the runs it releases on its own. */
const V3 = 'automationLaneV3Workflow';
const PLACE_MS = 1_500;

/**
 * The V3 run-control lane (workflows/automationLane.ts) on a real Temporal server, its activities plain functions: a run
 * it releases on its own (debounce over, queue's turn) waits for the place `placeLaneRun` answers, on a durable timer,
 * and a run cancelled before its place came is never started. Each history replays on today's bundle.
 */
describe('automationLaneV3Workflow with plain activities', () => {
  let env: TestWorkflowEnvironment;
  let worker: Worker;
  let running: Promise<void>;
  const taskQueue = `lane-tests-${randomUUID()}`;
  const placed: string[] = [];
  const begun: string[] = [];
  const skipped: LaneSkipsInput['skips'] = [];

  beforeAll(async () => {
    try {
      Runtime.install({ logger: new DefaultLogger('WARN') });
    } catch {
      // Installed already by an earlier file in this jest worker: its logger stays.
    }
    env = await TestWorkflowEnvironment.createFromExistingServer({ address: process.env.TEMPORAL_ADDRESS });
    worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE_PATH! },
      activities: {
        placeLaneRun: async ({ runWorkflowId }: { runWorkflowId: string }) => (placed.push(runWorkflowId), PLACE_MS),
        releaseLaneKey: async () => 1,
        recordLaneSkips: async (input: LaneSkipsInput) => (skipped.push(...input.skips), { recorded: input.skips.length, left: 0 }),
        beginAutomationRun: async (input: BeginRunInput): Promise<BeginRunResult> => {
          begun.push(input.runId);
          return {
            kind: 'started',
            runId: input.runId,
            workflow: { id: input.automationId, name: 'Under test', version: 1 },
            definition: { nodes: [{ id: 'start', type: 'trigger.event', params: { event: 'entity_event.bonus' } }], edges: [] },
            triggerNodeId: 'start',
            triggerType: 'trigger.event',
            reserved: { actions: 10, aiActions: 0 },
          };
        },
        finishAutomationRun: async (input: FinishRunInput) => ({ runId: input.runId, source: 'event', status: input.status }),
      },
    });
    running = worker.run();
  });
  afterAll(async () => {
    worker.shutdown();
    await running;
    await env.teardown();
  });

  const signal = (laneId: string, eventId: string, control: RunControl) =>
    env.client.workflow.signalWithStart(V3, {
      taskQueue,
      workflowId: laneId,
      args: [{ operatorId: 'op_test', automationId: 'wf_test' }],
      signal: 'laneTrigger',
      signalArgs: [
        {
          eventId,
          runWorkflowId: `run-${eventId}`,
          run: { operatorId: 'op_test', automationId: 'wf_test', source: 'event', input: { event: 'entity_event.bonus' }, triggerNodeId: 'start' },
          control,
          key: 'p-1',
          workflowVersion: 1,
        },
      ],
    });
  const historyOf = async (laneId: string) => {
    const handle = env.client.workflow.getHandle(laneId);
    await handle.result();
    return handle.fetchHistory();
  };
  const index = (events: HistoryEvent[], has: (event: HistoryEvent) => unknown) => events.findIndex((event) => has(event));

  it('starts a debounced run only once its place has come: the place, a timer as long, then the child, a V2 run', async () => {
    const laneId = `lane-${randomUUID()}`;
    const eventId = randomUUID();
    await signal(laneId, eventId, { debounce: { quiet_seconds: 1 } });
    const history = await historyOf(laneId);
    const events = history.events ?? [];
    expect(placed).toContain(`run-${eventId}`);
    const marker = index(events, (event) => event.markerRecordedEventAttributes);
    const timers = events.filter((event) => event.timerStartedEventAttributes);
    const child = index(events, (event) => event.startChildWorkflowExecutionInitiatedEventAttributes);
    // The debounce's timer, then the place's, then the start.
    expect(timers.map((event) => Number(event.timerStartedEventAttributes!.startToFireTimeout!.seconds ?? 0))).toEqual([1, 1]);
    const placeTimer = events.indexOf(timers[1]!);
    expect(marker).toBeGreaterThan(0);
    expect(marker).toBeLessThan(placeTimer);
    expect(placeTimer).toBeLessThan(child);
    // Its runs are the run type that asks Temporal for no patch.
    expect(events[child]!.startChildWorkflowExecutionInitiatedEventAttributes!.workflowType!.name).toBe('automationRunV2Workflow');
    await eventually(async () => begun.length > 0, 10_000);
    await Worker.runReplayHistory({ workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE_PATH! } }, history, laneId);
  }, 30_000);

  it('never starts a queued run cancelled while it waits for its place, and records it skipped as cancelled', async () => {
    const laneId = `lane-${randomUUID()}`;
    const [first, second] = [randomUUID(), randomUUID()];
    const control: RunControl = { concurrency: { limit: 1, when_busy: 'queue' } };
    await signal(laneId, first, control);
    await signal(laneId, second, control);
    // The first starts as it arrives; the second, queued, is placed once the first has closed, and cancelled meanwhile.
    await eventually(async () => placed.includes(`run-${second}`), 20_000);
    await env.client.workflow.getHandle(laneId).executeUpdate('cancelLaneRuns');
    const history = await historyOf(laneId);
    const children = (history.events ?? []).flatMap((event) => event.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId ?? []);
    expect(children).toEqual([`run-${first}`]);
    expect(skipped.filter((skip) => skip.eventId === second).map((skip) => skip.reason)).toEqual(['cancelled']);
    expect(await env.client.workflow.getHandle(laneId).query('laneState')).toMatchObject({ counts: { started: 1, cancelled: 1 } });
    await Worker.runReplayHistory({ workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE_PATH! } }, history, laneId);
  }, 40_000);
});
