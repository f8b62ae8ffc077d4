import type { Knex } from 'knex';
import { up as rebuildRollups } from './20261216090000_rebuild_analytics_rollups';

/**
 * The rollups the business figures read (db/queries/analyticsRollupTransactions.ts, analyticsRollupGameHealth.ts): `analytics_transactions`, each
 * transaction id's latest event of each day, per currency — what `GET /business` counts a transaction by (its latest
 * status within the range) without reading the range's events; `analytics_game_days`, each player's rounds per day,
 * game and provider, for `GET /game-health`; and each player-day's bonus cost, for NGR. Filled by the rollup passes
 * from the start: the rollups are rebuilt as the migration before this one does, so the new tables and the others
 * count the same events.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('analytics_transactions', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('currency').notNullable();
    table.date('day').notNullable();
    /** `data.id`, else the event's id: one transaction's events share it. */
    table.text('tx_key').notNullable();
    table.text('entity_id').notNullable();
    table.text('type');
    /** `data.status`, `completed` when absent. */
    table.text('status').notNullable();
    table.decimal('amount', null).notNullable();
    table.timestamp('occurred_at', { useTz: true }).notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.text('event_id').notNullable();
    table.primary(['operator_id', 'currency', 'day', 'tx_key']);
  });
  await db.schema.createTable('analytics_game_days', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('currency').notNullable();
    table.date('day').notNullable();
    /** `game_name`, else `game_id`; null when the round names neither. */
    table.text('game');
    /** The round's `provider`; null when it names none. */
    table.text('provider');
    table.text('entity_id').notNullable();
    table.bigInteger('rounds').notNullable();
    table.decimal('bets', null).notNullable();
    table.decimal('wins', null).notNullable();
    table.decimal('bonus_bets', null).notNullable();
    table.decimal('bonus_wins', null).notNullable();
  });
  // NULLS NOT DISTINCT: a round naming no game or provider folds into one row, as the raw path groups it.
  await db.raw(
    `CREATE UNIQUE INDEX analytics_game_days_key ON analytics_game_days (operator_id, currency, day, game, provider, entity_id) NULLS NOT DISTINCT`,
  );
  await db.schema.alterTable('analytics_player_days', (table) => {
    /** Σ amount of the player's completed `bonus` transactions that day: the bonus cost NGR subtracts. */
    table.decimal('bonus', null).notNullable().defaultTo(0);
    /** Whether the player had a completed bonus that day (of any amount): an NGR group exists with one. */
    table.boolean('bonused').notNullable().defaultTo(false);
  });
  await rebuildRollups(db);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('analytics_game_days');
  await db.schema.alterTable('analytics_player_days', (table) => {
    table.dropColumn('bonused');
    table.dropColumn('bonus');
  });
  await db.schema.dropTable('analytics_transactions');
}
