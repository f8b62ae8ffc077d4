import type { Knex } from 'knex';

/**
 * Game health from the rollups without a row per player (issue 45, docs/analytics.md "Game health"): each day's
 * rounds, stakes and wins per currency, game and provider, all players together (`analytics_game_health_days`), so a
 * read sums a few rows per day and game; only the distinct players of the page's games still read
 * `analytics_game_days`.
 *
 * Filled here from `analytics_game_days` (what the passes have already read), under the rollup state row's lock so no
 * pass runs in between. Stop the workers during the migration, as for any rollup change.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('analytics_game_health_days', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('currency').notNullable();
    table.date('day').notNullable();
    table.text('game');
    table.text('provider');
    table.bigInteger('rounds').notNullable().defaultTo(0);
    table.decimal('bets', null).notNullable().defaultTo(0);
    table.decimal('wins', null).notNullable().defaultTo(0);
    table.decimal('bonus_bets', null).notNullable().defaultTo(0);
    table.decimal('bonus_wins', null).notNullable().defaultTo(0);
  });
  await db.raw(
    `CREATE UNIQUE INDEX analytics_game_health_days_key ON analytics_game_health_days (operator_id, currency, day, game, provider) NULLS NOT DISTINCT`,
  );
  await db.raw('SELECT 1 FROM analytics_rollup_state WHERE id = 1 FOR UPDATE');
  await db.raw(
    `INSERT INTO analytics_game_health_days (operator_id, currency, day, game, provider, rounds, bets, wins, bonus_bets, bonus_wins)
     SELECT operator_id, currency, day, game, provider, sum(rounds), sum(bets), sum(wins), sum(bonus_bets), sum(bonus_wins)
       FROM analytics_game_days GROUP BY 1, 2, 3, 4, 5`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('analytics_game_health_days');
}
