import {
  CancellationScope,
  CancelledFailure,
  condition,
  defineQuery,
  defineUpdate,
  isCancellation,
  proxyLocalActivities,
  setHandler,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { DEFAULT_APPROVAL_TIMEOUT_SECONDS, MAX_APPROVAL_MESSAGE_CHARS, type ApprovalAnswer, type ApprovalOutput } from '../core/automations/approval';
import type { RunContext } from '../core/automations/expressions';
import { GraphIndex, topologicalOrder } from '../core/automations/graph';
import { branchTaken } from '../core/automations/nodes/branches';
import { triggerContextOf } from '../core/automations/triggerPayload';
import { isAction, isTrigger, type NodeResult, type RunError } from '../core/automations/types';
import { runAction, WAITING_RECORDED } from './automation/actions';
import { isSuppressed, MARKETING_GATE } from './automation/gate';
import { conditionHolds, EXPRESSIONS_IN_SANDBOX, PLAIN_PATHS_INLINE, renderedParams } from './automation/expressions';
import { nodeErrorOf } from './automation/nodeError';
import { addPlayer } from './automation/player';
import { patchesApplied, type PatchCheck } from './automation/patches';
import { RERUN_REUSES_RESULTS, reuseResults } from './automation/rerun';
import { LiveSteps, runTimelineQuery } from './automation/timeline';
import type { AutomationProgress, AutomationRunInput, AutomationRunResult, FinishRunInput } from '../core/workflowContracts';

/** Run bookkeeping is a short database write: a local activity, retried, with no task-queue round trip. */
const { beginAutomationRun, finishAutomationRun, markAutomationRunAwaitingInput } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 20, initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

/**
 * How much of its wait a caller that began a run must have left for the run to hand it its outcome instead of storing
 * it: the time the result takes to reach the caller. A run ending later stores its outcome itself, so a caller that
 * stopped waiting never leaves it to the run watchdog.
 */
export const CALLER_MARGIN_MS = 5_000;

/** Read by callers waiting on a run (MCP progress notifications): how far the interpreter is. */
export const automationProgressQuery = defineQuery<AutomationProgress>('automationProgress');

/**
 * Answers the `action.approval` the run waits in (an Owner or Admin in the dashboard, an agent through its MCP task).
 * Refused unless the run waits in that very node, so a late or repeated answer changes nothing.
 */
export const answerApprovalUpdate = defineUpdate<{ accepted: true }, [ApprovalAnswer]>('answerApproval');

/**
 * Interprets one automation run (DESIGN.md "Workflows"). The begin step records the run, checks the
 * trigger payload and reserves quota; then nodes run in topological order — a node runs when an
 * incoming edge comes from a completed node (for a condition, from the branch its result took),
 * otherwise it is `skipped`; each action is an activity with its own retry policy, `action.delay` a
 * durable timer. The first failing node fails the run; the end step stores every node's outcome.
 * A run whose input carries `begun` was begun by its caller (temporal/automationRuns.ts `runAutomationNow`), and
 * while that caller still waits, the run hands it the outcome to store (`ended`) instead of taking the end step.
 *
 * Cancelling the Temporal workflow (an MCP client's `notifications/cancelled`) cuts a running `action.delay`
 * short (that node is `cancelled`), lets an action already sent finish (workflows/automation/actions.ts), and
 * starts no further node: they are `skipped`. The begin and end steps are shielded from cancellation so the run
 * is always recorded and closed `cancelled`; the cancellation is then rethrown so Temporal, too, shows the
 * workflow cancelled.
 *
 * @example client.workflow.start(automationRunWorkflow, { args: [{ operatorId, automationId, source: 'manual', input: {} }], … }) // through temporal/automationRuns.ts
 */
export async function automationRunWorkflow(started: AutomationRunInput): Promise<AutomationRunResult> {
  return interpretRun(started, patchesApplied(new Set()));
}

/** Every patch of the run from before {@link automationRunV2Workflow}: its runs take them all without a marker. */
const V2_PATCHES: ReadonlySet<string> = new Set([EXPRESSIONS_IN_SANDBOX, PLAIN_PATHS_INLINE, WAITING_RECORDED, MARKETING_GATE, RERUN_REUSES_RESULTS]);

/**
 * The run every starter outside workflow code starts from release 2026-12-03 on: {@link automationRunWorkflow}'s
 * interpreter taking the patches made before it without asking Temporal, whose every `patched()` costs a new run a
 * marker, a `TemporalChangeVersion` upsert and its visibility write (docs/workflows.md#versioning). Runs started as
 * `automationRunWorkflow` (in flight at the release, children of lanes and replay jobs, older Schedules) keep asking.
 */
export async function automationRunV2Workflow(started: AutomationRunInput): Promise<AutomationRunResult> {
  return interpretRun(started, patchesApplied(V2_PATCHES));
}

async function interpretRun(started: AutomationRunInput, applies: PatchCheck): Promise<AutomationRunResult> {
  const { begun: givenBegun, callerWaitsMs, ...given } = started;
  const input = { ...given, automationId: given.automationId ?? given.workflowId ?? '' };
  const info = workflowInfo();
  const runId = input.runId ?? `run_${uuid4().replace(/-/g, '')}`;
  let progress: AutomationProgress = { progress: 0, total: 1, message: 'starting' };
  setHandler(automationProgressQuery, () => progress);
  const live = new LiveSteps();
  setHandler(runTimelineQuery, () => live.read(Date.now()));
  let awaitingNode: string | null = null;
  let answer: ApprovalAnswer | null = null;
  setHandler(
    answerApprovalUpdate,
    (given) => {
      answer = given;
      return { accepted: true as const };
    },
    {
      validator: (given) => {
        if (awaitingNode === null || given.nodeId !== awaitingNode || answer !== null) throw new Error('The run is not waiting for this answer');
      },
    },
  );
  /** An `action.approval`: recorded as awaited (so its MCP task reads `input_required`), then the answer or the timeout. */
  const awaitApproval = async (nodeId: string, params: Record<string, unknown>): Promise<ApprovalOutput> => {
    const seconds = typeof params.timeoutSeconds === 'number' ? params.timeoutSeconds : DEFAULT_APPROVAL_TIMEOUT_SECONDS;
    const until = new Date(Date.now() + seconds * 1000).toISOString();
    const message = (typeof params.message === 'string' ? params.message : JSON.stringify(params.message ?? '')).slice(0, MAX_APPROVAL_MESSAGE_CHARS);
    awaitingNode = nodeId;
    answer = null;
    live.waiting(nodeId, { for: 'approval', until });
    const record = (awaiting: { nodeId: string; message: string; until: string } | null) =>
      CancellationScope.nonCancellable(() => markAutomationRunAwaitingInput({ operatorId: input.operatorId, runId, awaiting }));
    await record({ nodeId, message, until });
    try {
      const answered = await condition(() => answer !== null, seconds * 1000);
      const given = answer as ApprovalAnswer | null;
      if (!answered || !given) return { approved: false, answeredBy: null, comment: null, timedOut: true };
      return { approved: given.approved, answeredBy: given.answeredBy, comment: given.comment ?? null, timedOut: false };
    } finally {
      awaitingNode = null;
      await record(null);
    }
  };

  const startedAt = new Date(info.startTime).toISOString();
  const payload = input.source === 'schedule' ? { scheduledAt: startedAt, triggerNodeId: input.triggerNodeId ?? null } : input.input;
  // A run its caller waits for was begun by the caller (commands/runs/begin.ts): one local activity fewer on its path.
  const begun =
    givenBegun ??
    (await CancellationScope.nonCancellable(() => beginAutomationRun({ ...input, input: payload, runId, temporalWorkflowId: info.workflowId, startedAt })));
  if (begun.kind === 'ignored') return begun;
  if (begun.kind === 'duplicate') return { kind: 'duplicate', runId: begun.runId };
  // Histories from before runs were returned by id hold the whole record here.
  if (begun.kind === 'rejected') return { kind: 'rejected', runId: begun.runId ?? (begun as { run?: { id: string } }).run?.id ?? runId };

  const graph = new GraphIndex(begun.definition);
  const order = topologicalOrder(begun.definition);
  const trigger = triggerContextOf(input.source, begun.triggerType, graph.node(begun.triggerNodeId)?.params.event, begun.rerun ? begun.rerun.input : payload);
  const context: RunContext = {
    trigger,
    nodes: { [begun.triggerNodeId]: trigger },
    workflow: begun.workflow,
    run: { id: runId, source: input.source },
  };
  await addPlayer(context, begun.definition, { operatorId: input.operatorId, runId, applies });
  const results = new Map<string, NodeResult>([[begun.triggerNodeId, { id: begun.triggerNodeId, status: 'completed', output: trigger, durationMs: 0 }]]);
  const branches = new Map<string, boolean>();
  const executed = { actions: 0, aiActions: 0 };
  let failure: RunError | null = null;
  let cancellation: { error: unknown; nodeId?: string } | null = null;
  let lastOutput: unknown = trigger;
  if (begun.rerun && applies(RERUN_REUSES_RESULTS))
    lastOutput = reuseResults(begun.rerun.reused, { order, graph, results, branches, nodes: context.nodes }, lastOutput);
  progress = { progress: 1, total: order.length };
  live.follow(order, results);

  const reached = (nodeId: string) =>
    graph.incoming(nodeId).some((edge) => results.get(edge.from)?.status === 'completed' && (edge.when === undefined || branches.get(edge.from) === edge.when));

  for (const nodeId of order) {
    if (results.has(nodeId)) continue;
    const node = graph.node(nodeId)!;
    if (!cancellation && CancellationScope.current().consideredCancelled) cancellation = { error: new CancelledFailure('Workflow cancelled') };
    if (failure || cancellation || isTrigger(node.type) || !reached(nodeId)) {
      results.set(nodeId, { id: nodeId, status: 'skipped', durationMs: 0 });
      progress = { progress: results.size, total: order.length };
      continue;
    }
    const startedAt = Date.now();
    live.started(nodeId, startedAt);
    progress = { progress: results.size, total: order.length, message: `running ${nodeId}` };
    // What the node was given, recorded beside its outcome (the run detail shows both); never read by workflow code.
    let stepInput: Pick<NodeResult, 'input'> = {};
    try {
      let output: unknown;
      if (node.type === 'condition') {
        stepInput = { input: node.params };
        const result = await conditionHolds(node, context, input.operatorId, applies);
        branches.set(nodeId, result);
        output = { result };
      } else {
        if (isAction(node.type)) {
          executed.actions += 1;
          if (node.type === 'action.ai') executed.aiActions += 1;
        }
        const params = await renderedParams(node, context, input.operatorId, applies);
        stepInput = { input: params };
        output = await runAction(node, params, {
          operatorId: input.operatorId,
          automationId: input.automationId,
          runId,
          context,
          awaitApproval: (given) => awaitApproval(nodeId, given),
          onWait: (wait) => live.waiting(nodeId, wait),
          applies,
        });
        if (isSuppressed(output)) {
          // A step the responsible-gambling gate stopped was not performed: it consumes no Action.
          executed.actions -= 1;
          if (node.type === 'action.ai') executed.aiActions -= 1;
        }
        const branch = branchTaken(node.type, output);
        if (branch !== undefined) branches.set(nodeId, branch);
        lastOutput = output;
      }
      context.nodes[nodeId] = output;
      const branch = branches.get(nodeId);
      results.set(nodeId, {
        id: nodeId,
        status: 'completed',
        ...stepInput,
        output,
        ...(branch === undefined ? {} : { branch }),
        durationMs: Date.now() - startedAt,
      });
    } catch (error) {
      if (isCancellation(error)) {
        cancellation = { error, nodeId };
        results.set(nodeId, { id: nodeId, status: 'cancelled', ...stepInput, durationMs: Date.now() - startedAt });
        progress = { progress: results.size, total: order.length, message: 'cancelled' };
        continue;
      }
      const { output, ...nodeError } = nodeErrorOf(error, nodeId);
      failure = nodeError;
      results.set(nodeId, {
        id: nodeId,
        status: 'failed',
        ...stepInput,
        ...(output === undefined ? {} : { output }),
        error: { code: nodeError.code, message: nodeError.message },
        durationMs: Date.now() - startedAt,
      });
    }
    progress = { progress: results.size, total: order.length, message: `finished ${nodeId}` };
  }

  const cancelled: RunError | null = cancellation && {
    code: 'RUN_CANCELLED',
    message: 'The run was cancelled',
    ...(cancellation.nodeId ? { nodeId: cancellation.nodeId } : {}),
  };
  const outcome: FinishRunInput = {
    operatorId: input.operatorId,
    runId,
    status: cancelled ? 'cancelled' : failure ? 'failed' : 'completed',
    output: cancelled || failure ? null : lastOutput,
    nodes: order.map((id) => results.get(id)!),
    error: cancelled ?? failure,
    executed,
  };
  // The caller that began the run still waits for it: it stores the outcome, one local activity fewer on its path.
  if (givenBegun && !cancellation && callerWaitsMs !== undefined && Date.now() - info.startTime.getTime() < callerWaitsMs - CALLER_MARGIN_MS)
    return { kind: 'ended', runId, outcome };
  await CancellationScope.nonCancellable(() => finishAutomationRun(outcome));
  if (cancellation) throw cancellation.error;
  return { kind: 'finished', runId };
}
