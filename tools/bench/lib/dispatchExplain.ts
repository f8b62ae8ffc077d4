import { temporal } from '@temporalio/proto';
import type { Client } from '@temporalio/client';
import type { Db } from '../../../db/knex';
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

const BIN_MS = 250;
const BINS = 16;

/**
 * What the burst's tenant and the bystander did in each quarter second of the burst's first 4 s (`DISPATCH_EXPLAIN=1`):
 * the burst's events written (their chunk's transaction began), its outbox rows taken by a pass, its runs started, and
 * the bystander's runs started with the slowest of them (outbox row → `started_at`, ms). PostgreSQL's clock.
 */
export async function burstTimeline(db: Db, burstOperatorId: string, bystanderOperatorId: string, postedAt: number): Promise<string[]> {
  const from = new Date(postedAt);
  const binned = async (sql: string, operatorId: string): Promise<Map<number, { n: number; worst: number }>> => {
    const { rows } = await db.raw<{ rows: Array<{ bin: number; n: number; worst: number | null }> }>(
      `SELECT bin::int, count(*)::int AS n, max(worst)::int AS worst FROM (${sql}) t
        WHERE bin >= 0 AND bin < ${BINS} GROUP BY bin`,
      [from, operatorId],
    );
    return new Map(rows.map((row) => [row.bin, { n: row.n, worst: row.worst ?? 0 }]));
  };
  const bin = (column: string) => `floor(extract(epoch FROM (${column} - ?::timestamptz)) * 1000 / ${BIN_MS})`;
  const written = await binned(`SELECT ${bin('created_at')} AS bin, NULL::int AS worst FROM entity_events WHERE operator_id = ?`, burstOperatorId);
  const passed = await binned(
    `SELECT ${bin('dispatched_at')} AS bin, NULL::int AS worst FROM outbox_events WHERE operator_id = ? AND dispatched_at > occurred_at`,
    burstOperatorId,
  );
  const started = await binned(`SELECT ${bin('started_at')} AS bin, NULL::int AS worst FROM automation_runs WHERE operator_id = ?`, burstOperatorId);
  const probes = await binned(
    `SELECT ${bin('r.started_at')} AS bin, extract(epoch FROM (r.started_at - o.occurred_at)) * 1000 AS worst
       FROM automation_runs r JOIN outbox_events o ON o.operator_id = r.operator_id
        AND o.id = substring(r.temporal_workflow_id FROM length(r.automation_id) + 19)
      WHERE r.operator_id = ?`,
    bystanderOperatorId,
  );
  const cell = (map: Map<number, { n: number }>, i: number) => String(map.get(i)?.n ?? 0).padStart(5);
  const lines = [`  from the post   written   passed   started   bystander runs (slowest, ms)`];
  for (let i = 0; i < BINS; i += 1) {
    const probe = probes.get(i);
    lines.push(
      `  +${((i * BIN_MS) / 1000).toFixed(2)} s      ${cell(written, i)}    ${cell(passed, i)}    ${cell(started, i)}    ${probe ? `${probe.n} (${probe.worst})` : '-'}`,
    );
  }
  return lines;
}
