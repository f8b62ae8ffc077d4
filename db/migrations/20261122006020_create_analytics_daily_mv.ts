import type { Knex } from 'knex';

/**
 * Money per operator, UTC day and currency (events without a currency take the operator's reporting currency at
 * refresh time). Erased players and redacted events are left out.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE MATERIALIZED VIEW analytics_daily_mv AS
    SELECT ev.operator_id,
           (ev.created_at AT TIME ZONE 'UTC')::date AS day,
           coalesce(nullif(ev.data->>'currency', ''), trim(s.reporting_currency), 'EUR') AS currency,
           sum(CASE WHEN ev.event_type = 'game_activity' AND jsonb_typeof(ev.data->'bet_amount') = 'number' THEN (ev.data->>'bet_amount')::numeric ELSE 0 END)
             - sum(CASE WHEN ev.event_type = 'game_activity' AND jsonb_typeof(ev.data->'win_amount') = 'number' THEN (ev.data->>'win_amount')::numeric ELSE 0 END) AS ggr,
           sum(CASE WHEN ev.event_type = 'transaction' AND ev.data->>'type' = 'deposit' AND coalesce(ev.data->>'status', 'completed') = 'completed'
                     AND jsonb_typeof(ev.data->'amount') = 'number' THEN (ev.data->>'amount')::numeric ELSE 0 END) AS deposits,
           sum(CASE WHEN ev.event_type = 'transaction' AND ev.data->>'type' = 'withdrawal' AND coalesce(ev.data->>'status', 'completed') = 'completed'
                     AND jsonb_typeof(ev.data->'amount') = 'number' THEN (ev.data->>'amount')::numeric ELSE 0 END) AS withdrawals
      FROM entity_events ev
      JOIN entities en ON en.id = ev.entity_id AND en.operator_id = ev.operator_id AND en.deleted_at IS NULL AND en.entity_type = 'player'
      LEFT JOIN operator_settings s ON s.operator_id = ev.operator_id
     WHERE ev.data->'_redacted' IS NULL
     GROUP BY 1, 2, 3
    WITH DATA`);
  await db.raw('CREATE UNIQUE INDEX analytics_daily_mv_unique ON analytics_daily_mv (operator_id, day, currency)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP MATERIALIZED VIEW analytics_daily_mv');
}
