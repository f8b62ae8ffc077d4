import { post, supplierConnection } from '../stack/stackClient';
import { startSupplier } from '../stack/loopbackSupplier';
import type { Db } from '../../db/knex';
import { waitUntil } from './lib';

/** Creates an automation whose event trigger fires on `event` and runs `actions` one after another. */
export async function eventAutomation(
  url: string,
  key: string,
  name: string,
  event: string,
  actions: Array<{ id: string; type: string; params: Record<string, unknown> }>,
): Promise<string> {
  const nodes = [{ id: 'start', type: 'trigger.event', params: { event } }, ...actions];
  const edges = nodes.slice(1).map((node, index) => ({ from: nodes[index]!.id, to: node.id }));
  const created = await post(url, '/workflows-api/workflows', { name, nodes, edges }, key);
  return created.data.id as string;
}

/** A trickle event that fires an automation: a small deposit carrying its client reference. */
export const markerEvent = { eventType: 'transaction', data: (ref: string) => ({ type: 'deposit', amount: 10, currency: 'EUR', reference: ref }) };

/** An automation fired by every {@link markerEvent}: one `action.set_state` on the event's player. */
export function markerAutomation(url: string, key: string, name: string): Promise<string> {
  return eventAutomation(url, key, name, 'entity_event.transaction', [
    { id: 'mark', type: 'action.set_state', params: { externalId: '{{ trigger.entity.externalId }}', key: 'risk_score', value: '{{ trigger.data.amount }}' } },
  ]);
}

/** Waits until every batch job has finished; returns their rows and, when some did not finish in time, why. */
export async function settleJobs(db: Db, operatorId: string, jobs: string[], timeoutMs: number) {
  type JobRow = { id: string; status: string; output: { succeeded: number; failed: number } | null };
  let rows: JobRow[] = [];
  const error = await waitUntil(
    async () => {
      rows = await db('batch_jobs').where({ operator_id: operatorId }).whereIn('id', jobs).select('id', 'status', 'output');
      return rows.every((row) => row.status === 'completed' || row.status === 'failed') ? true : undefined;
    },
    timeoutMs,
    'every batch job finished',
    500,
  ).then(
    () => null,
    (failure: Error) => failure.message,
  );
  return { rows, error };
}

/** Why a finished job is not the `completed` job of `size` items it should be, one line each. */
export function jobProblems(rows: Array<{ id: string; status: string; output: { succeeded: number; failed: number } | null }>, size: number): string[] {
  return rows
    .filter((job) => job.status !== 'completed' || job.output?.succeeded !== size || job.output.failed !== 0)
    .map((job) => `job ${job.id} ${job.status} ${JSON.stringify(job.output)}`);
}

export interface RunTally {
  runs: number;
  completed: number;
  /** Other statuses, e.g. `{ failed: 2 }`. */
  others: Record<string, number>;
}

export async function tallyRuns(db: Db, operatorId: string, workflowId: string): Promise<RunTally> {
  const rows = await db('automation_runs')
    .where({ operator_id: operatorId, automation_id: workflowId })
    .groupBy('status')
    .select('status', db.raw('count(*)::int AS count'));
  const tally: RunTally = { runs: 0, completed: 0, others: {} };
  for (const row of rows as Array<{ status: string; count: number }>) {
    tally.runs += row.count;
    if (row.status === 'completed') tally.completed += row.count;
    else tally.others[row.status] = row.count;
  }
  return tally;
}

/** Waits until the workflow has `expected` runs and none is still running; returns the last tally either way. */
export async function settleRuns(db: Db, operatorId: string, workflowId: string, expected: number, timeoutMs: number): Promise<RunTally> {
  let last = await tallyRuns(db, operatorId, workflowId);
  await waitUntil(
    async () => {
      last = await tallyRuns(db, operatorId, workflowId);
      return last.runs >= expected && !last.others.running ? true : undefined;
    },
    timeoutMs,
    'runs settled',
    500,
  ).catch(() => undefined);
  return last;
}

/** Outbox rows of the operator not yet dispatched. */
export async function pendingOutbox(db: Db, operatorId: string): Promise<number> {
  const [row] = await db('outbox_events').where({ operator_id: operatorId }).whereNull('dispatched_at').count<Array<{ count: string }>>({ count: '*' });
  return Number(row?.count ?? 0);
}

/** Each acknowledged reference stored exactly once? Counts over `entity_events.data->>field`. */
export async function storedCounts(db: Db, operatorId: string, field: string, acked: Set<string>) {
  const rows = (await db('entity_events')
    .where({ operator_id: operatorId })
    .whereRaw('data \\? ?', [field])
    .select(db.raw('data->>? AS ref', [field]))) as Array<{ ref: string }>;
  const stored = new Map<string, number>();
  for (const row of rows) stored.set(row.ref, (stored.get(row.ref) ?? 0) + 1);
  return {
    stored: stored.size,
    lost: [...acked].filter((ref) => !stored.has(ref)).length,
    duplicated: [...stored.values()].reduce((sum, count) => sum + count - 1, 0),
    /** Stored but never acknowledged: a client gave up on an event the platform had in fact taken. */
    unacknowledged: [...stored.keys()].filter((ref) => !acked.has(ref)).length,
  };
}

/** The loopback KYC supplier (tools/stack/loopbackSupplier.ts) and a gateway connection to it; `body` is one `POST /gateway` of `kyc.status`. */
export async function gatewayFixture(url: string, key: string): Promise<{ supplier: { close(): Promise<void> }; body: Record<string, unknown> }> {
  const supplier = await startSupplier();
  const connectionId = await supplierConnection(url, key, supplier.url, 'chaos');
  return { supplier, body: { connectionId, operation: 'kyc.status', params: { playerId: 'p-1' } } };
}

/**
 * The longest wait, over events that occurred after `since`, from an outbox event to the start of the run it fired:
 * seconds when the dispatcher's LISTEN path works, up to a minute when only the `outbox-sweep` Schedule finds them.
 */
export async function dispatchLagMs(db: Db, operatorId: string, workflowId: string, since: Date): Promise<number | null> {
  const { rows } = await db.raw<{ rows: Array<{ lag_ms: number | null }> }>(
    `SELECT max(extract(epoch FROM r.started_at - o.occurred_at) * 1000)::float8 AS lag_ms
       FROM automation_runs r
       JOIN outbox_events o ON o.operator_id = r.operator_id AND r.temporal_workflow_id = 'automation-event-' || r.automation_id || '-' || o.id
      WHERE r.operator_id = ? AND r.automation_id = ? AND o.occurred_at > ?`,
    [operatorId, workflowId, since],
  );
  return rows[0]?.lag_ms ?? null;
}
