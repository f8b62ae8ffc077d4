import type { Knex } from 'knex';

/**
 * First-time deposits (issue 45, `/analytics/business`): "did this player complete a deposit before the range?" and
 * "which was their first?" are answered per player from this partial index, so FTD and conversion read the deposits of
 * the range's players, not the operator's whole history. Cost: one index entry per completed deposit (about 5–10 % of
 * events in a casino's mix), written on insert of those events only; other events do not touch it.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`CREATE INDEX entity_events_first_deposit_idx ON entity_events (operator_id, entity_id, occurred_at)
    WHERE event_type = 'transaction' AND data->>'type' = 'deposit' AND coalesce(data->>'status', 'completed') = 'completed'`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX entity_events_first_deposit_idx');
}
