import { temporal } from '@temporalio/proto';
import type { Client } from '@temporalio/client';
import type { Probed } from './dispatchProbe';

const SHORT: Record<string, string> = {
  EVENT_TYPE_WORKFLOW_EXECUTION_STARTED: 'started',
  EVENT_TYPE_WORKFLOW_TASK_SCHEDULED: 'task scheduled',
  EVENT_TYPE_WORKFLOW_TASK_STARTED: 'task taken',
  EVENT_TYPE_WORKFLOW_TASK_COMPLETED: 'task done',
  EVENT_TYPE_ACTIVITY_TASK_SCHEDULED: 'activity scheduled',
  EVENT_TYPE_ACTIVITY_TASK_STARTED: 'activity taken',
  EVENT_TYPE_ACTIVITY_TASK_COMPLETED: 'activity done',
  EVENT_TYPE_MARKER_RECORDED: 'marker',
};
const EVENTS_SHOWN = 8;

const millis = (time: temporal.api.history.v1.IHistoryEvent['eventTime']) =>
  time ? Number(time.seconds ?? 0) * 1000 + Math.floor((time.nanos ?? 0) / 1e6) : Number.NaN;

/**
 * Where the slowest probes' time went (`DISPATCH_EXPLAIN=1`): from each one's POST, its dispatch pass, then the first
 * events of its run's Temporal history and its `started_at`, in ms. Clocks: PostgreSQL's and Temporal's, one host.
 */
export async function explainSlowest(client: Client, probed: Probed): Promise<string[]> {
  const lines: string[] = [];
  for (const probe of probed.slowest) {
    const history = await client.workflow.getHandle(probe.workflowId).fetchHistory();
    const steps = (history.events ?? []).slice(0, EVENTS_SHOWN).map((event) => {
      const name = temporal.api.enums.v1.EventType[event.eventType ?? 0] ?? String(event.eventType);
      return `${SHORT[name] ?? name.replace('EVENT_TYPE_', '').toLowerCase()} ${millis(event.eventTime) - probe.writtenAt}`;
    });
    lines.push(
      `${probe.latency} ms, sent at +${(probe.sentAfter / 1000).toFixed(1)} s: pass ${probe.passAt - probe.writtenAt}, ${steps.join(', ')}, started_at ${probe.startedAt - probe.writtenAt}`,
    );
  }
  return lines;
}
