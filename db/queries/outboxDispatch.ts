import type { Knex } from 'knex';
import type { RunControl } from '../../core/automations/runControl';
import { hotQuery, type HotStatement } from '../hot';
import type { Db } from '../knex';

export interface PendingOutboxRow {
  seq: string;
  operator_id: string;
  event: string;
  occurred_at: Date;
  origin_workflow_id: string | null;
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

/**
 * Claims up to `limit` undispatched outbox rows in `seq` order for this transaction; rows another
 * dispatcher holds are skipped, so several workers share the backlog without blocking each other, and so are the
 * rows of `skipOperators` (past their budget of run starts), so their backlog cannot hold back anyone else's events.
 *
 * Across every operator, on purpose: a dispatcher serves every tenant from one outbox ordered by `seq`, and
 * claiming per operator would cost a query per operator per pass on the path every event takes. It answers
 * only what routing needs (no payload), and each row's `operator_id` then scopes every later step of the pass
 * (docs/workflows.md, "The outbox dispatcher").
 */
export async function claimPendingOutbox(trx: Knex.Transaction, limit: number, skipOperators: string[] = []): Promise<PendingOutboxRow[]> {
  const result = await trx.raw<{ rows: PendingOutboxRow[] }>(
    `SELECT seq, operator_id, event, occurred_at, origin_workflow_id FROM outbox_events
      WHERE dispatched_at IS NULL AND NOT (operator_id = ANY(?::uuid[])) ORDER BY seq LIMIT ? FOR UPDATE SKIP LOCKED`,
    [skipOperators, limit],
  );
  return result.rows.map((row) => ({ ...row, seq: String(row.seq) }));
}

/** Active, non-deleted workflows of these operators with an event trigger on any of `events`. */
export async function automationsListeningTo(trx: Knex.Transaction, operatorIds: string[], events: string[]): Promise<EventAutomationRow[]> {
  if (operatorIds.length === 0 || events.length === 0) return [];
  const result = await trx.raw<{ rows: EventAutomationRow[] }>(
    `SELECT id, operator_id, nodes, edges, name, version, trigger_events, events_since, run_control FROM workflows
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
           SELECT seq, operator_id, event, occurred_at, origin_workflow_id FROM outbox_events
            WHERE dispatched_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED
         ), unheard AS (
           SELECT p.seq, p.operator_id FROM pending p
            WHERE p.event <> 'entity_event.transaction' AND NOT outbox_event_heard(p.operator_id, p.event, p.occurred_at, p.origin_workflow_id)
         ), settled AS (
           UPDATE outbox_events o SET dispatched_at = now() FROM unheard u WHERE o.seq = u.seq AND o.operator_id = u.operator_id RETURNING 1
         )
         SELECT (SELECT count(*) FROM pending)::int AS taken, (SELECT count(*) FROM pending)::int - (SELECT count(*) FROM settled)::int AS heard`,
};

export async function settleUnheardOutbox(db: Db, limit: number): Promise<{ taken: number; heard: number }> {
  const [row] = await hotQuery<{ taken: number; heard: number }>(db, SETTLE_UNHEARD, [limit]);
  return row ?? { taken: 0, heard: 0 };
}
