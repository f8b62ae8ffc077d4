import {
  CancelledFailure,
  WorkflowExecutionAlreadyStartedError,
  WorkflowUpdateFailedError,
  WorkflowFailedError,
  WorkflowNotFoundError,
  type Client,
  type WorkflowHandle,
} from '@temporalio/client';
import { prefixedId } from '../core/ids';
import { holdsPayloadRef } from '../core/payloadRef';
import { mayHoldRun } from '../core/automations/nodes';
import type { AutomationRunRecord } from '../core/automations/types';
import type { ApprovalAnswer } from '../core/automations/approval';
import { answerApprovalUpdate, automationProgressQuery, automationRunV2Workflow, type automationRunWorkflow } from '../workflows/automationRun';
import type { PayloadRefs } from './payloadRefs';
import type { AutomationProgress, AutomationRunInput, AutomationRunResult, BeginRunInput, BeginRunResult, FinishRunInput } from '../core/workflowContracts';

interface Starter {
  client: Client;
  taskQueue: string;
  /** Where runs that may hold on purpose start (temporal/taskQueues.ts); the interactive queue when absent. */
  waitingTaskQueue?: string;
  eagerStart: boolean;
  payloadRefs?: Pick<PayloadRefs, 'resolve'>;
}

export type StartRunInput = Omit<AutomationRunInput, 'runId' | 'begun' | 'callerWaitsMs'>;

/**
 * Every run of an organisation shares its fairness key: with task queue fairness on (deploy/temporal-dynamic-config.yaml),
 * Temporal hands out the queue's tasks round robin across organisations, so one organisation's backlog of runs (a
 * burst past what the workers take) delays its own runs, not another's. Activities and child runs inherit it.
 */
export const fairnessOf = (operatorId: string) => ({ fairnessKey: operatorId });

/** The Temporal workflow id of a run the API starts (manual, MCP, webhook): one per pre-assigned run id. */
const apiRunWorkflowId = (source: string, runId: string) => `automation-${source}-${runId}`;

/** The Temporal workflow id of the run an outbox event starts for an automation: at most one run per pair. */
export const eventRunWorkflowId = (automationId: string, eventId: string) => `automation-event-${automationId}-${eventId}`;

const PROGRESS_POLL_MS = 150;

/** A run's queue: the waiting one when its automation has a node that holds its run (`mayHoldRun`), else the interactive one. */
const runQueueOf = (temporal: Pick<Starter, 'taskQueue' | 'waitingTaskQueue'>, holds: boolean): string =>
  holds ? (temporal.waitingTaskQueue ?? temporal.taskQueue) : temporal.taskQueue;

/**
 * Starts an automation run without waiting (webhooks) and returns its pre-assigned run id. The run
 * itself checks the automation, the trigger payload and the quota.
 *
 * @example const { runId } = await startAutomationRun(temporal, { operatorId, automationId, source: 'webhook', input: body, triggerNodeId })
 */
export async function startAutomationRun(
  temporal: Starter,
  input: StartRunInput & Pick<AutomationRunInput, 'begun' | 'callerWaitsMs'>,
  runId = prefixedId('run'),
  holds = false,
): Promise<{ runId: string; handle: WorkflowHandle<typeof automationRunWorkflow> }> {
  const handle = await temporal.client.workflow.start(automationRunV2Workflow, {
    taskQueue: runQueueOf(temporal, holds),
    workflowId: apiRunWorkflowId(input.source, runId),
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    priority: fairnessOf(input.operatorId),
    args: [{ ...input, runId }],
    requestEagerStart: temporal.eagerStart,
  });
  return { runId, handle };
}

/** The run an outbox event fires for one automation: `holds` when the automation has a node that holds its run. */
export type EventRunInput = AutomationRunInput & { eventId: string; holds?: boolean };

/**
 * Starts the run an outbox event fires for one automation (the event dispatcher). A second start for
 * the same (automation, event) is refused by Temporal and answered `duplicate`.
 */
export async function startEventRun(temporal: Starter, input: EventRunInput): Promise<'started' | 'duplicate'> {
  const { eventId, holds, ...args } = input;
  try {
    await temporal.client.workflow.start(automationRunV2Workflow, {
      taskQueue: runQueueOf(temporal, holds === true),
      workflowId: eventRunWorkflowId(input.automationId, eventId),
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      priority: fairnessOf(input.operatorId),
      args: [args],
    });
    return 'started';
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return 'duplicate';
    throw error;
  }
}

function pollProgress(handle: WorkflowHandle<typeof automationRunWorkflow>, onProgress: (progress: AutomationProgress) => void): () => void {
  let last = '';
  let stopped = false;
  const tick = async () => {
    while (!stopped) {
      try {
        const progress = await handle.query(automationProgressQuery);
        const key = `${progress.progress}/${progress.total}`;
        if (!stopped && key !== last) {
          last = key;
          onProgress(progress);
        }
      } catch {
        // Not started yet or already closed: the next tick or the result tells.
      }
      await new Promise((resolve) => setTimeout(resolve, PROGRESS_POLL_MS));
    }
  };
  void tick();
  return () => {
    stopped = true;
  };
}

/**
 * A handed-back outcome (`ended`) as the end step would have stored it: node outputs the run holds as references to
 * stored values (temporal/payloadRefs.ts, scoped to the run's workflow) read back in.
 */
export async function openOutcome(refs: Pick<PayloadRefs, 'resolve'> | undefined, workflowId: string, outcome: FinishRunInput): Promise<FinishRunInput> {
  if (!holdsPayloadRef(outcome)) return outcome;
  if (!refs) throw new Error(`the outcome of ${workflowId} references stored values, and this process has no payload store`);
  return (await refs.resolve(outcome, workflowId)) as FinishRunInput;
}

/** One value of a handed-back outcome read in: its references resolved (a run's large node outputs, one at a time). */
async function openValue(refs: Pick<PayloadRefs, 'resolve'> | undefined, workflowId: string, value: unknown): Promise<unknown> {
  if (!holdsPayloadRef(value)) return value;
  if (!refs) throw new Error(`the outcome of ${workflowId} references stored values, and this process has no payload store`);
  return refs.resolve(value, workflowId);
}

async function finishedRun(readRun: (runId: string) => Promise<AutomationRunRecord | undefined>, runId: string): Promise<RunNowOutcome> {
  const run = await readRun(runId);
  if (!run) throw new Error(`run ${runId} ended but its record is missing`);
  return { kind: 'finished', run };
}

/** How long the look at a run whose caller's wait has run out may take: the caller is answered `running` past it. */
const ENDED_LOOK_MS = 2_000;

/**
 * At the end of the caller's wait, whether the run has nevertheless ended: a run decides to hand its outcome back by
 * its own clock (workflows/automationRun.ts), so one that did just before the wait ran out would otherwise be answered
 * `running` and stored only by the run watchdog, minutes later. One look at the workflow, then its result — both
 * bounded, so a slow Temporal delays the answer by {@link ENDED_LOOK_MS} at most.
 */
async function endedMeanwhile(
  client: Client,
  handle: WorkflowHandle<typeof automationRunWorkflow>,
  result: Promise<AutomationRunResult | 'timeout' | 'cancelled'>,
): Promise<AutomationRunResult | 'timeout' | 'cancelled'> {
  const deadline = Date.now() + ENDED_LOOK_MS;
  const status = await client
    .withDeadline(deadline, () => handle.describe())
    .then(
      (description) => description.status.name,
      () => undefined,
    );
  if (status !== 'COMPLETED' && status !== 'CANCELLED') return 'timeout';
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([result, late]);
  } finally {
    clearTimeout(timer);
  }
}

export type RunNowOutcome =
  /** The run ended (completed or failed: `run.status` and `run.error.code` say which), or was refused before any node. */
  | { kind: 'finished'; run: AutomationRunRecord }
  /** The run was cancelled (`cancelAutomationRun`) and has closed its record as `cancelled`. */
  | { kind: 'cancelled'; runId: string }
  /** Still running after `waitMs`; it carries on durably in Temporal. */
  | { kind: 'running'; runId: string }
  /** The automation is not the operator's, or has no trigger for this source: nothing was recorded. */
  | { kind: 'not_found' };

/**
 * Runs an automation now and waits for it (manual test runs, MCP `tools/call`): `begin` records the run with its
 * source, trigger-validated and quota-checked (commands/runs/begin.ts), before the workflow starts with it, and
 * `finish` stores the outcome the run hands back when it ends within the wait — the workflow then has neither a begin
 * nor an end step of its own, two local activities fewer between the caller and its answer. A run refused at its
 * begin never starts a workflow; a run outlasting the wait stores its outcome itself. `MISSING_TRIGGER_FIELD`,
 * `QUOTA_EXCEEDED` and a node's failure are finished runs. Should the process die between the begin and the start,
 * the run watchdog closes the run `RUN_LOST` and gives its reservation back; between the end and the store, the
 * watchdog stores the outcome from the workflow's result.
 *
 * @example const outcome = await runAutomationNow(temporal, { operatorId, automationId, source: 'mcp', input: args }, { waitMs: 55_000, onProgress })
 */
export async function runAutomationNow(
  temporal: Starter,
  input: StartRunInput,
  options: {
    /** Records the run before the start (`beginRun` with the caller's dependencies). */
    begin: (input: BeginRunInput) => Promise<BeginRunResult>;
    /**
     * Stores the outcome of a run that handed it back (`finishRun`), answering the stored run: the outcome as the run
     * holds it (node values may be references), and `read` to read each value in, one at a time.
     */
    finish: (outcome: FinishRunInput, read: (value: unknown) => Promise<unknown>) => Promise<AutomationRunRecord>;
    waitMs: number;
    onProgress?: (progress: AutomationProgress) => void;
    /** Called once the run is started, before any wait: its ids, so the caller can cancel it meanwhile. */
    onStarted?: (started: { runId: string; temporalWorkflowId: string }) => void;
    /** Reads the stored run (`findRunRecord`) once it has ended: the workflow hands back only its id. */
    readRun: (runId: string) => Promise<AutomationRunRecord | undefined>;
  },
): Promise<RunNowOutcome> {
  const runId = prefixedId('run');
  const begun = await options.begin({ ...input, runId, temporalWorkflowId: apiRunWorkflowId(input.source, runId), startedAt: new Date().toISOString() });
  if (begun.kind === 'ignored') return { kind: 'not_found' };
  if (begun.kind === 'duplicate') throw new Error(`run ${runId} was begun twice`);
  if (begun.kind === 'rejected') return finishedRun(options.readRun, begun.runId);
  const { handle } = await startAutomationRun(temporal, { ...input, begun, callerWaitsMs: options.waitMs }, runId, mayHoldRun(begun.definition.nodes));
  options.onStarted?.({ runId, temporalWorkflowId: handle.workflowId });
  const abandon = new AbortController();
  const stopPolling = options.onProgress ? pollProgress(handle, options.onProgress) : () => undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    const waited = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), options.waitMs);
    });
    // A run still going when the caller stops waiting must not leave its long poll behind on the connection.
    const result = temporal.client
      .withAbortSignal(abandon.signal, () => handle.result())
      .catch((error: unknown) => {
        if (error instanceof WorkflowFailedError && error.cause instanceof CancelledFailure) return 'cancelled' as const;
        if (abandon.signal.aborted) return 'timeout' as const;
        throw error;
      });
    const raced: AutomationRunResult | 'timeout' | 'cancelled' = await Promise.race([result, waited]);
    const outcome = raced === 'timeout' ? await endedMeanwhile(temporal.client, handle, result) : raced;
    if (outcome === 'timeout') return { kind: 'running', runId };
    if (outcome === 'cancelled') return { kind: 'cancelled', runId };
    if (outcome.kind === 'ignored') return { kind: 'not_found' };
    if (outcome.kind === 'duplicate') throw new Error(`run ${runId} was started twice`);
    if (outcome.kind === 'ended')
      return { kind: 'finished', run: await options.finish(outcome.outcome, (value) => openValue(temporal.payloadRefs, handle.workflowId, value)) };
    return finishedRun(options.readRun, outcome.runId);
  } finally {
    clearTimeout(timer);
    stopPolling();
    abandon.abort();
  }
}

/** The Temporal workflow id `startAutomationRun` gives a run of this source and id, known before it starts. */
export const automationRunWorkflowId = apiRunWorkflowId;

/**
 * Waits for a run to end (an MCP task's `tasks/result`): Temporal's long poll on its result, not a poll of ours.
 * `cancelled` when it was cancelled; `ignored` when it never recorded itself (its automation was gone). Rejects with
 * an AbortError when `signal` aborts first.
 */
export async function awaitAutomationRun(
  temporal: Pick<Starter, 'client'>,
  temporalWorkflowId: string,
  signal: AbortSignal,
): Promise<'ended' | 'cancelled' | 'ignored'> {
  const handle = temporal.client.workflow.getHandle<typeof automationRunWorkflow>(temporalWorkflowId);
  try {
    const result = await temporal.client.withAbortSignal(signal, () => handle.result());
    return result.kind === 'ignored' ? 'ignored' : 'ended';
  } catch (error) {
    if (error instanceof WorkflowFailedError && error.cause instanceof CancelledFailure) return 'cancelled';
    throw error;
  }
}

/** How far a run is, by one query of its workflow; undefined when it cannot answer (not started yet, or closed). */
export async function automationRunProgress(temporal: Pick<Starter, 'client'>, temporalWorkflowId: string): Promise<AutomationProgress | undefined> {
  try {
    return await temporal.client.workflow.getHandle<typeof automationRunWorkflow>(temporalWorkflowId).query(automationProgressQuery);
  } catch {
    return undefined;
  }
}

/**
 * Asks Temporal to cancel a run by its Temporal workflow id (typed by `automationRunWorkflow`): the run stops
 * before its next node and closes its record as `cancelled` (workflows/automationRun.ts). `not_running` when the
 * workflow has already closed or never existed.
 *
 * @example await cancelAutomationRun(temporal, 'automation-mcp-run_…') // 'requested'
 */
export async function cancelAutomationRun(temporal: Pick<Starter, 'client'>, temporalWorkflowId: string): Promise<'requested' | 'not_running'> {
  try {
    await temporal.client.workflow.getHandle<typeof automationRunWorkflow>(temporalWorkflowId).cancel();
    return 'requested';
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return 'not_running';
    throw error;
  }
}

/**
 * Answers the approval a run waits in (an Update of its workflow). `not_waiting` when the run waits for no such answer
 * (the validator refused it: answered already, timed out, another node) or has ended.
 *
 * @example await answerRunApproval(temporal, 'automation-mcp-run_…', { nodeId: 'approve', approved: true, answeredBy: 'member:…' })
 */
export async function answerRunApproval(
  temporal: Pick<Starter, 'client'>,
  temporalWorkflowId: string,
  answer: ApprovalAnswer,
): Promise<'answered' | 'not_waiting'> {
  try {
    await temporal.client.workflow.getHandle<typeof automationRunWorkflow>(temporalWorkflowId).executeUpdate(answerApprovalUpdate, { args: [answer] });
    return 'answered';
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError || error instanceof WorkflowNotFoundError) return 'not_waiting';
    throw error;
  }
}
