import type { Knex } from 'knex';
import type { RunControl } from '../../core/automations/runControl';
import { hotQuery, type HotStatement } from '../hot';
import type { Db } from '../knex';

export interface PendingOutboxRow {
  seq: string;
  operator_id: string;
  event: string;
  occurred_at: Date;
  origin_automation_id: string | null;
}

export interface EventAutomationRow {
  id: string;
  operator_id: string;
  nodes: Array<{ id: string; type: string; params: Record<string, unknown> }>;
  edges: unknown[];
  name: string;
  version: number;
  trigger_events: string[];
  events_since: Date;
  /** Per-key run control (core/automations/runControl.ts); its `cancel_on` events are in `trigger_events` too. */
  run_control?: RunControl | null;
}

/** The advisory-lock namespace of the dispatch of one operator's events (the second key is the operator's hash). */
const OPERATOR_DISPATCH_LOCK = 0x6f75_7462;

/**
 * Takes the right to dispatch one operator's events for this transaction; false when another dispatcher has it. One
 * dispatcher at a time per operator keeps each operator's events in order across worker processes, and an operator
 * another process is working on is simply left to it.
 */
export async function lockOperatorDispatch(trx: Knex.Transaction, operatorId: string): Promise<boolean> {
  const { rows } = await trx.raw<{ rows: Array<{ locked: boolean }> }>('SELECT pg_try_advisory_xact_lock(?, hashtext(?)) AS locked', [
    OPERATOR_DISPATCH_LOCK,
    operatorId,
  ]);
  return rows[0]?.locked === true;
}

/**
 * Runs one dispatch pass of the operator's events in a transaction holding its dispatch lock
 * ({@link lockOperatorDispatch}); `elsewhere` when another dispatcher holds it. The pass's reads and writes (claim,
 * skipped triggers, marking dispatched) go through `trx`, so they commit together or not at all.
 */
export async function inOperatorDispatch<T>(db: Db, operatorId: string, elsewhere: T, pass: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => ((await lockOperatorDispatch(trx, operatorId)) ? pass(trx) : elsewhere));
}

/**
 * The operator's oldest `limit` undispatched outbox rows, in `seq` order, for the dispatcher holding the operator's
 * dispatch lock ({@link lockOperatorDispatch}): the lock, not a row lock, keeps them its own. No row is locked, so the
 * pass writes nothing — and takes no transaction id — until it marks them dispatched at its end: a wait registering
 * meanwhile (`awaitInFlightWriters`, db/queries/runWaits.ts) does not wait for a pass that starts runs for seconds.
 * It answers only what routing needs (no payload).
 */
export async function claimOperatorOutbox(trx: Knex.Transaction, operatorId: string, limit: number): Promise<PendingOutboxRow[]> {
  const result = await trx.raw<{ rows: PendingOutboxRow[] }>(
    `SELECT seq, operator_id, event, occurred_at, origin_automation_id FROM outbox_events
      WHERE operator_id = ? AND dispatched_at IS NULL ORDER BY seq LIMIT ?`,
    [operatorId, limit],
  );
  return result.rows.map((row) => ({ ...row, seq: String(row.seq) }));
}

/**
 * The operators with pending events, oldest pending event first, leaving out `skip` (those being dispatched, or
 * waiting for their share to refill). It skips from one operator to the next through the per-operator pending index
 * (a loose index scan), so an operator's backlog of thousands costs one probe, not a read of the backlog.
 *
 * Across every operator, on purpose: one dispatcher serves every tenant; each operator's events are then claimed and
 * routed with its own id (docs/workflows.md, "How events reach automations").
 */
export async function operatorsWithPendingEvents(db: Db, skip: string[], limit: number): Promise<string[]> {
  const result = await db.raw<{ rows: Array<{ operator_id: string }> }>(
    `WITH RECURSIVE operators AS (
       (SELECT operator_id FROM outbox_events WHERE dispatched_at IS NULL ORDER BY operator_id LIMIT 1)
       UNION ALL
       SELECT (SELECT o.operator_id FROM outbox_events o WHERE o.dispatched_at IS NULL AND o.operator_id > p.operator_id ORDER BY o.operator_id LIMIT 1)
         FROM operators p WHERE p.operator_id IS NOT NULL
     )
     SELECT p.operator_id FROM operators p
      WHERE p.operator_id IS NOT NULL AND NOT (p.operator_id = ANY(?::uuid[]))
      ORDER BY (SELECT min(o.seq) FROM outbox_events o WHERE o.operator_id = p.operator_id AND o.dispatched_at IS NULL)
      LIMIT ?`,
    [skip, limit],
  );
  return result.rows.map((row) => row.operator_id);
}

/** How far an operator's dispatch is behind: its pending events (counted up to `cap`) and the oldest one's age. */
export async function dispatchLag(db: Db, operatorId: string, cap: number): Promise<{ pending: number; oldestSeconds: number }> {
  const result = await db.raw<{ rows: Array<{ pending: number; oldest: Date | null; now: Date }> }>(
    `SELECT (SELECT count(*) FROM (SELECT 1 FROM outbox_events WHERE operator_id = ? AND dispatched_at IS NULL LIMIT ?) c)::int AS pending,
            (SELECT occurred_at FROM outbox_events WHERE operator_id = ? AND dispatched_at IS NULL ORDER BY seq LIMIT 1) AS oldest,
            now() AS now`,
    [operatorId, cap, operatorId],
  );
  const row = result.rows[0]!;
  return { pending: row.pending, oldestSeconds: row.oldest ? Math.max(0, (row.now.getTime() - row.oldest.getTime()) / 1000) : 0 };
}

/** Active, non-deleted workflows of these operators with an event trigger on any of `events`. */
export async function automationsListeningTo(trx: Knex.Transaction, operatorIds: string[], events: string[]): Promise<EventAutomationRow[]> {
  if (operatorIds.length === 0 || events.length === 0) return [];
  const result = await trx.raw<{ rows: EventAutomationRow[] }>(
    `SELECT id, operator_id, nodes, edges, name, version, trigger_events, events_since, run_control FROM automations
      WHERE active AND deleted_at IS NULL AND trigger_events <> '{}' AND trigger_events && ?::text[] AND operator_id = ANY(?::uuid[])`,
    [events, operatorIds],
  );
  return result.rows;
}

/** Marks claimed rows dispatched; `operatorIds` are the claimed rows' own, so the update stays within their tenants. */
export async function markDispatched(trx: Knex.Transaction, seqs: string[], operatorIds: string[]): Promise<void> {
  if (seqs.length === 0) return;
  await trx.raw('UPDATE outbox_events SET dispatched_at = now() WHERE seq = ANY(?::bigint[]) AND operator_id = ANY(?::uuid[])', [seqs, operatorIds]);
}

/**
 * Takes the oldest undispatched rows (up to `$1`, skipping rows another dispatcher holds) and marks those
 * that no automation can fire (`outbox_event_heard`, the rule `worker/outboxDispatch.ts` applies to
 * the rest) dispatched at once, in one autocommitted statement; answers how many rows it took and how many
 * it left for the claim. Transaction events are left too: the claim checks them for harm indicators first. It
 * takes rows of every operator, as `claimPendingOutbox` does and for the same reason; each row is judged and settled
 * with its own operator id.
 */
const SETTLE_UNHEARD: HotStatement = {
  name: 'outbox-settle-unheard-v4',
  text: `WITH pending AS (
           SELECT seq, operator_id, event, occurred_at, origin_automation_id FROM outbox_events
            WHERE dispatched_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED
         ), unheard AS (
           SELECT p.seq, p.operator_id FROM pending p
            WHERE p.event <> 'entity_event.transaction' AND NOT outbox_event_heard(p.operator_id, p.event, p.occurred_at, p.origin_automation_id)
         ), settled AS (
           UPDATE outbox_events o SET dispatched_at = now() FROM unheard u WHERE o.seq = u.seq AND o.operator_id = u.operator_id RETURNING 1
         )
         SELECT (SELECT count(*) FROM pending)::int AS taken, (SELECT count(*) FROM pending)::int - (SELECT count(*) FROM settled)::int AS heard`,
};

export async function settleUnheardOutbox(db: Db, limit: number): Promise<{ taken: number; heard: number }> {
  const [row] = await hotQuery<{ taken: number; heard: number }>(db, SETTLE_UNHEARD, [limit]);
  return row ?? { taken: 0, heard: 0 };
}
