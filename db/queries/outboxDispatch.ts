import type { Knex } from 'knex';

export interface PendingOutboxRow {
  seq: string;
  operator_id: string;
  event: string;
  occurred_at: Date;
  origin_workflow_id: string | null;
}

export interface EventWorkflowRow {
  id: string;
  operator_id: string;
  nodes: Array<{ id: string; type: string; params: Record<string, unknown> }>;
  edges: unknown[];
  name: string;
  version: number;
  trigger_events: string[];
  events_since: Date;
}

/**
 * Claims up to `limit` undispatched outbox rows in `seq` order for this transaction; rows another
 * dispatcher holds are skipped, so several workers share the backlog without blocking each other.
 */
export async function claimPendingOutbox(trx: Knex.Transaction, limit: number): Promise<PendingOutboxRow[]> {
  const result = await trx.raw<{ rows: PendingOutboxRow[] }>(
    `SELECT seq, operator_id, event, occurred_at, origin_workflow_id FROM outbox_events
      WHERE dispatched_at IS NULL ORDER BY seq LIMIT ? FOR UPDATE SKIP LOCKED`,
    [limit],
  );
  return result.rows.map((row) => ({ ...row, seq: String(row.seq) }));
}

/** Active, non-deleted workflows of these operators with an event trigger on any of `events`. */
export async function workflowsListeningTo(trx: Knex.Transaction, operatorIds: string[], events: string[]): Promise<EventWorkflowRow[]> {
  if (operatorIds.length === 0 || events.length === 0) return [];
  const result = await trx.raw<{ rows: EventWorkflowRow[] }>(
    `SELECT id, operator_id, nodes, edges, name, version, trigger_events, events_since FROM workflows
      WHERE active AND deleted_at IS NULL AND trigger_events <> '{}' AND trigger_events && ?::text[] AND operator_id = ANY(?::uuid[])`,
    [events, operatorIds],
  );
  return result.rows;
}

export async function markDispatched(trx: Knex.Transaction, seqs: string[]): Promise<void> {
  if (seqs.length === 0) return;
  await trx.raw('UPDATE outbox_events SET dispatched_at = now() WHERE seq = ANY(?::bigint[])', [seqs]);
}
