import { ScheduleAlreadyRunning, ScheduleNotFoundError, type Client } from '@temporalio/client';
import type { AutomationNode } from '../core/automations/types';
import { automationRunV2Workflow } from '../workflows/automationRun';
import type { AutomationRunInput } from '../core/workflowContracts';

/** One Temporal Schedule per `trigger.schedule` node. */
export const automationScheduleId = (automationId: string, nodeId: string) => `automation-schedule-${automationId}-${nodeId}`;

const scheduleNodes = (nodes: AutomationNode[]) => nodes.filter((node) => node.type === 'trigger.schedule');

/**
 * Makes the Temporal Schedules of an automation match its definition: one per `trigger.schedule` node
 * while the automation is active (cron in its IANA timezone), none when it is inactive or deleted
 * (`next` null). Schedules of nodes that disappeared are deleted, existing ones updated in place.
 *
 * @example await syncAutomationSchedules(temporal, { operatorId, automationId, previous: old.nodes, next: active ? nodes : null })
 */
export async function syncAutomationSchedules(
  temporal: { client: Client; taskQueue: string },
  input: { operatorId: string; automationId: string; previous: AutomationNode[]; next: AutomationNode[] | null },
): Promise<void> {
  const { client, taskQueue } = temporal;
  const desired = input.next ? scheduleNodes(input.next) : [];
  const keep = new Set(desired.map((node) => node.id));
  for (const node of scheduleNodes(input.previous)) {
    if (keep.has(node.id)) continue;
    try {
      await client.schedule.getHandle(automationScheduleId(input.automationId, node.id)).delete();
    } catch (error) {
      if (!(error instanceof ScheduleNotFoundError)) throw error;
    }
  }
  for (const node of desired) {
    const scheduleId = automationScheduleId(input.automationId, node.id);
    const args: AutomationRunInput = { operatorId: input.operatorId, automationId: input.automationId, source: 'schedule', input: {}, triggerNodeId: node.id };
    const spec = { cronExpressions: [String(node.params.cron)], timezone: String(node.params.timezone) };
    const action = {
      type: 'startWorkflow' as const,
      workflowType: automationRunV2Workflow,
      args: [args] as [AutomationRunInput],
      taskQueue,
      workflowId: scheduleId,
    };
    try {
      await client.schedule.create({ scheduleId, spec, action });
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw error;
      await client.schedule.getHandle(scheduleId).update((previous) => ({ ...previous, spec, action }));
    }
  }
}
