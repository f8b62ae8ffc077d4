import type { Knex } from 'knex';

/**
 * What the harm check (db/queries/harmIndicators.ts) reads behind every checked deposit, each as an index that
 * matches its query whole, so the check stays a few index probes per player whatever the planner's statistics say
 * (a burst of ingestion outruns ANALYZE, and the general indexes then looked as cheap as walking every transaction
 * of the operator):
 * - a player's counted deposits (the velocity window), a partial index whose predicate is the query's own;
 * - a player's reversed and cancelled withdrawals, rare rows, likewise;
 * - whether an indicator already fired for a player within a window.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`CREATE INDEX entity_events_counted_deposits_idx ON entity_events (operator_id, entity_id, created_at)
                WHERE event_type = 'transaction' AND data->>'type' = 'deposit'
                  AND coalesce(data->>'status', 'completed') NOT IN ('failed', 'reversed', 'cancelled')`);
  await db.raw(`CREATE INDEX entity_events_reversed_withdrawals_idx ON entity_events (operator_id, entity_id, created_at)
                WHERE event_type = 'transaction' AND data->>'type' = 'withdrawal' AND data->>'status' IN ('reversed', 'cancelled')`);
  await db.raw('CREATE INDEX harm_indicators_player_indicator_idx ON harm_indicators (operator_id, entity_id, indicator, fired_at)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX harm_indicators_player_indicator_idx');
  await db.raw('DROP INDEX entity_events_reversed_withdrawals_idx');
  await db.raw('DROP INDEX entity_events_counted_deposits_idx');
}
