import type { Knex } from 'knex';

/** All-time game rows per operator, game (`game_name`, else `game_id`) and currency. */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE MATERIALIZED VIEW analytics_games_mv AS
    SELECT ev.operator_id,
           coalesce(ev.data->>'game_name', ev.data->>'game_id') AS game_name,
           coalesce(nullif(ev.data->>'currency', ''), trim(s.reporting_currency), 'EUR') AS currency,
           count(*) AS rounds,
           sum(CASE WHEN jsonb_typeof(ev.data->'bet_amount') = 'number' THEN (ev.data->>'bet_amount')::numeric ELSE 0 END) AS bets,
           sum(CASE WHEN jsonb_typeof(ev.data->'win_amount') = 'number' THEN (ev.data->>'win_amount')::numeric ELSE 0 END) AS wins,
           count(DISTINCT ev.entity_id) AS unique_players
      FROM entity_events ev
      JOIN entities en ON en.id = ev.entity_id AND en.operator_id = ev.operator_id AND en.deleted_at IS NULL AND en.entity_type = 'player'
      LEFT JOIN operator_settings s ON s.operator_id = ev.operator_id
     WHERE ev.event_type = 'game_activity' AND ev.data->'_redacted' IS NULL
       AND coalesce(ev.data->>'game_name', ev.data->>'game_id') IS NOT NULL
     GROUP BY 1, 2, 3
    WITH DATA`);
  await db.raw('CREATE UNIQUE INDEX analytics_games_mv_unique ON analytics_games_mv (operator_id, game_name, currency)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP MATERIALIZED VIEW analytics_games_mv');
}
