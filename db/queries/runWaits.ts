import type { Knex } from 'knex';
import type { InternalEvent } from '../../core/events';
import { readOutboxEvents } from './outbox';

type Runner = Knex | Knex.Transaction;

/** One run waiting in an `action.wait_for_event` (`automation_run_waits`). */
export interface RunWait {
  operatorId: string;
  runId: string;
  nodeId: string;
  temporalWorkflowId: string;
  event: string;
  externalId: string;
  since: Date;
  until: Date;
}

/** An outbox event a wait may take, by its place in the outbox (`seq`, the primary key) and its id. */
export interface WaitCandidate {
  seq: string;
  eventId: string;
}

/** How long a registration waits at most for writers that were committing while it registered. */
const IN_FLIGHT_WAIT_MS = 2_000;
const IN_FLIGHT_POLL_MS = 10;
const CANDIDATES = 20;

/** Stores the wait (again, unchanged, when a retried registration already did). */
export async function insertRunWait(db: Runner, wait: RunWait): Promise<void> {
  await db('automation_run_waits')
    .insert({
      operator_id: wait.operatorId,
      run_id: wait.runId,
      node_id: wait.nodeId,
      temporal_workflow_id: wait.temporalWorkflowId,
      event: wait.event,
      external_id: wait.externalId,
      since: wait.since,
      until: wait.until,
    })
    .onConflict(['operator_id', 'run_id', 'node_id'])
    .ignore();
}

export async function deleteRunWait(db: Runner, operatorId: string, runId: string, nodeId: string): Promise<void> {
  await db('automation_run_waits').where({ operator_id: operatorId, run_id: runId, node_id: nodeId }).delete();
}

/**
 * Returns once every transaction that was open when this is called has ended (or after {@link IN_FLIGHT_WAIT_MS}).
 * A writer whose event was judged unheard just before a wait was stored may commit just after: once it has ended,
 * a read sees its event, so a registration that reads after this misses nothing. The transaction id this call takes
 * is above every open one's, so they have all ended once the oldest running transaction is newer than it.
 */
export async function awaitInFlightWriters(db: Knex): Promise<void> {
  const { rows } = await db.raw<{ rows: Array<{ xid: string }> }>('SELECT pg_current_xact_id()::text AS xid');
  const mark = rows[0]!.xid;
  const deadline = Date.now() + IN_FLIGHT_WAIT_MS;
  while (Date.now() < deadline) {
    const { rows: now } = await db.raw<{ rows: Array<{ done: boolean }> }>('SELECT pg_snapshot_xmin(pg_current_snapshot()) > ?::xid8 AS done', [mark]);
    if (now[0]?.done) return;
    await new Promise((resolve) => setTimeout(resolve, IN_FLIGHT_POLL_MS));
  }
}

/** Events of `event` about the operator's entity `externalId` that occurred at or after `since`, oldest first. */
export async function waitCandidatesSince(db: Runner, wait: Pick<RunWait, 'operatorId' | 'event' | 'externalId' | 'since'>): Promise<WaitCandidate[]> {
  const { rows } = await db.raw<{ rows: Array<{ seq: string; id: string }> }>(
    `SELECT o.seq, o.id FROM outbox_events o
       JOIN entities n ON n.operator_id = o.operator_id AND n.id = o.entity_id
      WHERE o.operator_id = ? AND n.external_id = ? AND o.entity_id IS NOT NULL AND o.event = ? AND o.occurred_at >= ?
      ORDER BY o.seq LIMIT ?`,
    [wait.operatorId, wait.externalId, wait.event, wait.since, CANDIDATES],
  );
  return rows.map((row) => ({ seq: String(row.seq), eventId: row.id }));
}

/** One outbox event of the operator, in the internal-event shape; null when it is not there (or another operator's). */
export async function readWaitedEvent(db: Runner, operatorId: string, seq: string): Promise<InternalEvent | null> {
  const [record] = await readOutboxEvents(db, { claimed: { seqs: [seq], operatorIds: [operatorId] }, limit: 1 });
  return record?.event ?? null;
}

/** Which of these operators wait for which of these event names: most dispatch passes end here, with none. */
export async function waitedEventNames(trx: Runner, operatorIds: string[], events: string[]): Promise<Array<{ operator_id: string; event: string }>> {
  if (operatorIds.length === 0 || events.length === 0) return [];
  const { rows } = await trx.raw<{ rows: Array<{ operator_id: string; event: string }> }>(
    'SELECT DISTINCT operator_id, event FROM automation_run_waits WHERE operator_id = ANY(?::uuid[]) AND event = ANY(?::text[])',
    [operatorIds, events],
  );
  return rows;
}

/** A dispatched event as the waits lookup needs it. */
export interface ArrivedEvent {
  operatorId: string;
  event: string;
  externalId: string;
  occurredAt: string;
}

/** The waits each event wakes: the same operator, event name and entity, waiting since the event occurred or earlier. */
export async function waitsWokenBy(trx: Runner, arrived: ArrivedEvent[]): Promise<Array<RunWait & { index: number }>> {
  if (arrived.length === 0) return [];
  const { rows } = await trx.raw<{ rows: Array<Record<string, unknown>> }>(
    `SELECT a.index, w.operator_id, w.run_id, w.node_id, w.temporal_workflow_id, w.event, w.external_id, w.since, w.until
       FROM unnest(?::uuid[], ?::text[], ?::text[], ?::timestamptz[]) WITH ORDINALITY AS a(operator_id, event, external_id, occurred_at, index)
       JOIN automation_run_waits w ON w.operator_id = a.operator_id AND w.event = a.event AND w.external_id = a.external_id AND w.since <= a.occurred_at`,
    [arrived.map((a) => a.operatorId), arrived.map((a) => a.event), arrived.map((a) => a.externalId), arrived.map((a) => a.occurredAt)],
  );
  return rows.map((row) => ({
    index: Number(row.index) - 1,
    operatorId: row.operator_id as string,
    runId: row.run_id as string,
    nodeId: row.node_id as string,
    temporalWorkflowId: row.temporal_workflow_id as string,
    event: row.event as string,
    externalId: row.external_id as string,
    since: row.since as Date,
    until: row.until as Date,
  }));
}
