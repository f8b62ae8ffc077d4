import { ScheduleAlreadyRunning, ScheduleNotFoundError, type Client } from '@temporalio/client';
import type { WorkflowNode } from '../core/workflows/types';
import { automationRunWorkflow } from '../workflows/automationRun';
import type { AutomationRunInput } from '../workflows/contracts';

/** One Temporal Schedule per `trigger.schedule` node. */
export const automationScheduleId = (workflowId: string, nodeId: string) => `automation-schedule-${workflowId}-${nodeId}`;

const scheduleNodes = (nodes: WorkflowNode[]) => nodes.filter((node) => node.type === 'trigger.schedule');

/**
 * Makes the Temporal Schedules of a workflow match its definition: one per `trigger.schedule` node
 * while the workflow is active (cron in its IANA timezone), none when it is inactive or deleted
 * (`next` null). Schedules of nodes that disappeared are deleted, existing ones updated in place.
 *
 * @example await syncAutomationSchedules(temporal, { operatorId, workflowId, previous: old.nodes, next: active ? nodes : null })
 */
export async function syncAutomationSchedules(
  temporal: { client: Client; taskQueue: string },
  input: { operatorId: string; workflowId: string; previous: WorkflowNode[]; next: WorkflowNode[] | null },
): Promise<void> {
  const { client, taskQueue } = temporal;
  const desired = input.next ? scheduleNodes(input.next) : [];
  const keep = new Set(desired.map((node) => node.id));
  for (const node of scheduleNodes(input.previous)) {
    if (keep.has(node.id)) continue;
    try {
      await client.schedule.getHandle(automationScheduleId(input.workflowId, node.id)).delete();
    } catch (error) {
      if (!(error instanceof ScheduleNotFoundError)) throw error;
    }
  }
  for (const node of desired) {
    const scheduleId = automationScheduleId(input.workflowId, node.id);
    const args: AutomationRunInput = { operatorId: input.operatorId, workflowId: input.workflowId, source: 'schedule', input: {}, triggerNodeId: node.id };
    const spec = { cronExpressions: [String(node.params.cron)], timezone: String(node.params.timezone) };
    const action = { type: 'startWorkflow' as const, workflowType: automationRunWorkflow, args: [args] as [AutomationRunInput], taskQueue, workflowId: scheduleId };
    try {
      await client.schedule.create({ scheduleId, spec, action });
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw error;
      await client.schedule.getHandle(scheduleId).update((previous) => ({ ...previous, spec, action }));
    }
  }
}
