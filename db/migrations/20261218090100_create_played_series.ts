import type { Knex } from 'knex';

/**
 * Players who played in a currency, kept as a distinct-player series (issue 45, docs/analytics.md "Distinct players"),
 * so `/business`'s `active_players` reads the kept gaps instead of counting the range's player-days: the series
 * `played-in-currency:<currency>` holds a chain row per player and day with a game round in that currency.
 *
 * Filled here from `analytics_player_days` (its `played` flag: what the passes have already read), under the rollup
 * state row's lock so no pass runs in between; later days are added by the passes. Stop the workers during the
 * migration, as for any rollup change.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('SELECT 1 FROM analytics_rollup_state WHERE id = 1 FOR UPDATE');
  await db.raw(
    `WITH added AS (
       INSERT INTO analytics_player_chain (operator_id, entity_id, series, day, prev_day)
       SELECT operator_id, entity_id, 'played-in-currency:' || currency, day,
              coalesce(lag(day) OVER (PARTITION BY operator_id, entity_id, currency ORDER BY day), '-infinity'::date)
         FROM analytics_player_days WHERE played
       ON CONFLICT DO NOTHING
       RETURNING operator_id, series, day, prev_day
     )
     INSERT INTO analytics_player_gaps (operator_id, series, day, prev_day, players)
     SELECT operator_id, series, day, prev_day, count(*) FROM added GROUP BY 1, 2, 3, 4
     ON CONFLICT (operator_id, series, day, prev_day) DO UPDATE SET players = analytics_player_gaps.players + excluded.players`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`DELETE FROM analytics_player_gaps WHERE series LIKE 'played-in-currency:%'`);
  await db.raw(`DELETE FROM analytics_player_chain WHERE series LIKE 'played-in-currency:%'`);
}
