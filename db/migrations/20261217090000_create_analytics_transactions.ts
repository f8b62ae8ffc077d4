import type { Knex } from 'knex';
import { up as rebuildRollups } from './20261216090000_rebuild_analytics_rollups';

/**
 * `analytics_transactions` (db/queries/analyticsRollupTransactions.ts): each transaction id's latest event of each
 * day, per currency — what `GET /business` counts a transaction by (its latest status within the range) without
 * reading the range's events — and each player-day's bonus cost, for NGR from the rollups. Filled by the rollup passes from the start: the rollups are rebuilt as the migration
 * before this one does, so the new table and the others count the same events.
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
  await db.schema.alterTable('analytics_player_days', (table) => {
    /** Σ amount of the player's completed `bonus` transactions that day: the bonus cost NGR subtracts. */
    table.decimal('bonus', null).notNullable().defaultTo(0);
    /** Whether the player had a completed bonus that day (of any amount): an NGR group exists with one. */
    table.boolean('bonused').notNullable().defaultTo(false);
  });
  await rebuildRollups(db);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('analytics_player_days', (table) => {
    table.dropColumn('bonused');
    table.dropColumn('bonus');
  });
  await db.schema.dropTable('analytics_transactions');
}
