import { createHash } from 'node:crypto';
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import type { LaneState, LaneTrigger } from '../core/automations/runControl';
import { automationLaneV3Workflow, type automationLaneWorkflow, cancelLaneRunsUpdate, laneStateQuery, laneTriggerSignal } from '../workflows/automationLane';
import { cancelAutomationRun, fairnessOf } from './automationRuns';

interface Starter {
  client: Client;
  taskQueue: string;
  /** Where lanes start (temporal/taskQueues.ts): a lane stays open for its key; the interactive queue when absent. */
  waitingTaskQueue?: string;
}

/** The key of one automation's run control, as the dispatcher evaluated it. */
export interface LaneKey {
  operatorId: string;
  automationId: string;
  key: string;
}

/**
 * The Temporal workflow id of a key's lane: `automation-lane-<automationId>-<32 hex>`, the hex a SHA-256 of operator,
 * automation and key, so a key (personal data: an entity's externalId) never appears in Temporal's ids or UI.
 *
 * @example laneWorkflowId({ operatorId, automationId: 'wf_1', key: 'p-1' }) // 'automation-lane-wf_1-3f0c…'
 */
export function laneWorkflowId(lane: LaneKey): string {
  const hash = createHash('sha256').update(`${lane.operatorId}\u0000${lane.automationId}\u0000${lane.key}`).digest('hex').slice(0, 32);
  return `automation-lane-${lane.automationId}-${hash}`;
}

/**
 * Hands an event's trigger to its key's lane with signal-with-start (workflows/automationLane.ts; a new lane is an
 * `automationLaneV3Workflow`, a running lane of any type is signalled), which starts, queues, skips or debounces
 * its run. A new lane starts on the waiting queue, and its runs, its children, with it. `started` means handed over:
 * what the lane did is in its `laneState` and in `platform_automation_triggers_skipped_total`.
 */
export async function startKeyedRun(temporal: Starter, lane: LaneKey, trigger: LaneTrigger): Promise<'started'> {
  await temporal.client.workflow.signalWithStart(automationLaneV3Workflow, {
    taskQueue: temporal.waitingTaskQueue ?? temporal.taskQueue,
    workflowId: laneWorkflowId(lane),
    priority: fairnessOf(lane.operatorId),
    args: [{ operatorId: lane.operatorId, automationId: lane.automationId }],
    signal: laneTriggerSignal,
    signalArgs: [trigger],
  });
  return 'started';
}

/**
 * Ends a key's runs (`cancel_on`): the lane drops its waiting triggers and names its running runs, and each is
 * cancelled with `cancelAutomationRun` (it closes its record as `cancelled`). Answers how many were asked to stop; 0
 * when the key has no lane (nothing runs for it).
 */
export async function cancelKeyedRuns(temporal: Pick<Starter, 'client'>, lane: LaneKey): Promise<number> {
  let ids: string[];
  try {
    ({ runWorkflowIds: ids } = await temporal.client.workflow
      .getHandle<typeof automationLaneWorkflow>(laneWorkflowId(lane))
      .executeUpdate(cancelLaneRunsUpdate));
  } catch (error) {
    if (error instanceof WorkflowNotFoundError || error instanceof WorkflowUpdateFailedError) return 0;
    throw error;
  }
  const outcomes = await Promise.all(ids.map((id) => cancelAutomationRun(temporal, id)));
  return outcomes.filter((outcome) => outcome === 'requested').length;
}

/** What a key's lane runs, holds and did; undefined when the key has no lane now. */
export async function keyedLaneState(temporal: Pick<Starter, 'client'>, lane: LaneKey): Promise<LaneState | undefined> {
  try {
    return await temporal.client.workflow.getHandle<typeof automationLaneWorkflow>(laneWorkflowId(lane)).query(laneStateQuery);
  } catch {
    return undefined;
  }
}

/** Whether a lane workflow runs now: false once it has closed, or when there is none under that id. */
export async function laneRunning(temporal: Pick<Starter, 'client'>, laneId: string): Promise<boolean> {
  try {
    const described = await temporal.client.workflow.getHandle(laneId).describe();
    return described.status.name === 'RUNNING';
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}
