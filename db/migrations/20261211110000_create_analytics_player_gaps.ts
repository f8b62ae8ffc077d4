import type { Knex } from 'knex';

/**
 * Distinct-player counts kept by the rollup pass (issue 45, docs/analytics.md "Distinct players"), so `/kpis` and
 * `/revenue` no longer scan every player-day of their range.
 *
 * `analytics_player_chain` holds one row per player, series and day the player was in (series `''`: any counted
 * event, any currency; a currency code: a completed deposit in it), with the player's previous day in that series
 * (`-infinity` for their first). `analytics_player_gaps` counts those rows per (series, day, previous day). A player
 * is in the range [a, b] exactly once: on their first day in it, whose previous day is before a. So the distinct
 * players of any range are Σ players over day ∈ [a, b] and prev_day < a — exact, and read from at most one row per
 * day and earlier day of the history.
 *
 * Both are filled here from `analytics_player_days` (what the passes have already read), under the state row's lock so
 * no pass runs in between.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('analytics_player_chain', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('entity_id').notNullable();
    table.text('series').notNullable();
    table.date('day').notNullable();
    table.date('prev_day').notNullable();
    table.primary(['operator_id', 'entity_id', 'series', 'day']);
  });
  await db.schema.createTable('analytics_player_gaps', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('series').notNullable();
    table.date('day').notNullable();
    table.date('prev_day').notNullable();
    table.bigInteger('players').notNullable().defaultTo(0);
    table.primary(['operator_id', 'series', 'day', 'prev_day']);
  });
  await db.raw('SELECT 1 FROM analytics_rollup_state WHERE id = 1 FOR UPDATE');
  await db.raw(
    `INSERT INTO analytics_player_chain (operator_id, entity_id, series, day, prev_day)
     SELECT operator_id, entity_id, series, day,
            coalesce(lag(day) OVER (PARTITION BY operator_id, entity_id, series ORDER BY day), '-infinity'::date)
       FROM (SELECT DISTINCT operator_id, entity_id, '' AS series, day FROM analytics_player_days
             UNION ALL
             SELECT DISTINCT operator_id, entity_id, currency, day FROM analytics_player_days WHERE deposited) d`,
  );
  await db.raw(
    `INSERT INTO analytics_player_gaps (operator_id, series, day, prev_day, players)
     SELECT operator_id, series, day, prev_day, count(*) FROM analytics_player_chain GROUP BY 1, 2, 3, 4`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('analytics_player_gaps');
  await db.schema.dropTable('analytics_player_chain');
}
