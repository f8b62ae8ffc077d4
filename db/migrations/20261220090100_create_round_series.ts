import type { Knex } from 'knex';

/**
 * `GET /game-health`'s players per game and provider without reading the range's rounds (issue 45, docs/analytics.md
 * "Game health"): two distinct-player series per currency, one per game (`game-in-currency:`) and one per provider
 * (`provider-in-currency:`, the rounds naming none included), kept as chains with their gaps like every other series
 * (db/queries/analyticsRollupDistinct.ts `roundSeries`).
 *
 * Filled here from `analytics_game_days` (what the passes have already read), under the rollup state row's lock so no
 * pass runs in between. Stop the workers during the migration, as for any rollup change.
 */
const series = (by: 'game' | 'provider', name: string) => `'${by}-in-currency:' || length(currency) || ':' || currency || coalesce(':' || ${name}, '')`;
const ROUND_SERIES = `(series LIKE 'game-in-currency:%' OR series LIKE 'provider-in-currency:%')`;

export async function up(db: Knex): Promise<void> {
  await db.raw('SELECT 1 FROM analytics_rollup_state WHERE id = 1 FOR UPDATE');
  await db.raw(
    `WITH days AS (
       SELECT DISTINCT operator_id, entity_id, ${series('game', 'game')} AS series, day FROM analytics_game_days WHERE game IS NOT NULL
       UNION
       SELECT DISTINCT operator_id, entity_id, ${series('provider', 'provider')}, day FROM analytics_game_days
     ), added AS (
       INSERT INTO analytics_player_chain (operator_id, entity_id, series, day, prev_day)
       SELECT operator_id, entity_id, series, day, coalesce(lag(day) OVER (PARTITION BY operator_id, entity_id, series ORDER BY day), '-infinity'::date)
         FROM days
       ON CONFLICT DO NOTHING
       RETURNING operator_id, series, day, prev_day
     )
     INSERT INTO analytics_player_gaps (operator_id, series, day, prev_day, players)
     SELECT operator_id, series, day, prev_day, count(*) FROM added GROUP BY 1, 2, 3, 4
     ON CONFLICT (operator_id, series, day, prev_day) DO UPDATE SET players = analytics_player_gaps.players + excluded.players`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`DELETE FROM analytics_player_gaps WHERE ${ROUND_SERIES}`);
  await db.raw(`DELETE FROM analytics_player_chain WHERE ${ROUND_SERIES}`);
}
