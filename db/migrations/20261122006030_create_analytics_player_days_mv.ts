import type { Knex } from 'knex';

/** One row per operator, UTC day, player and currency with activity: distinct active and depositing players over any range. */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE MATERIALIZED VIEW analytics_player_days_mv AS
    SELECT ev.operator_id,
           (ev.created_at AT TIME ZONE 'UTC')::date AS day,
           ev.entity_id,
           coalesce(nullif(ev.data->>'currency', ''), trim(s.reporting_currency), 'EUR') AS currency,
           bool_or(ev.event_type = 'transaction' AND ev.data->>'type' = 'deposit' AND coalesce(ev.data->>'status', 'completed') = 'completed') AS deposited
      FROM entity_events ev
      JOIN entities en ON en.id = ev.entity_id AND en.operator_id = ev.operator_id AND en.deleted_at IS NULL AND en.entity_type = 'player'
      LEFT JOIN operator_settings s ON s.operator_id = ev.operator_id
     WHERE ev.data->'_redacted' IS NULL
     GROUP BY 1, 2, 3, 4
    WITH DATA`);
  await db.raw('CREATE UNIQUE INDEX analytics_player_days_mv_unique ON analytics_player_days_mv (operator_id, day, entity_id, currency)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP MATERIALIZED VIEW analytics_player_days_mv');
}
