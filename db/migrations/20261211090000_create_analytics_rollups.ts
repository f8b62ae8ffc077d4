import type { Knex } from 'knex';

/**
 * Per-operator rollups maintained incrementally (issue 45, docs/analytics.md "Rollups"), replacing the whole-table
 * refresh of the `analytics_*_mv` views (left in place, no longer refreshed or read).
 *
 * `entity_events.ingest_xid` is the inserting transaction's id: the catch-up pass reads only rows whose transaction
 * ended before its snapshot's xmin, so rows of transactions that commit out of order are never skipped. It is added
 * without a default first (a volatile default on ADD COLUMN would rewrite the table); rows written before it are NULL
 * and read as transaction 0, so the first pass reads the whole history once. Totals per (operator, day, currency),
 * game and provider answer the reads; the per-player tables make distinct counts and the subtraction of an erased
 * player exact.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE entity_events ADD COLUMN ingest_xid bigint');
  await db.raw('ALTER TABLE entity_events ALTER COLUMN ingest_xid SET DEFAULT (pg_current_xact_id()::text::bigint)');
  await db.raw('CREATE INDEX entity_events_rollup_idx ON entity_events ((coalesce(ingest_xid, 0)), id)');
  await db.raw('CREATE INDEX entities_erased_idx ON entities (operator_id, id) WHERE deleted_at IS NOT NULL');
  const money = (table: Knex.CreateTableBuilder): void => {
    table.decimal('ggr', null).notNullable().defaultTo(0);
    table.decimal('deposits', null).notNullable().defaultTo(0);
    table.decimal('withdrawals', null).notNullable().defaultTo(0);
  };
  await db.schema.createTable('analytics_daily', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.date('day').notNullable();
    table.text('currency').notNullable();
    money(table);
    table.primary(['operator_id', 'day', 'currency']);
  });
  await db.schema.createTable('analytics_player_days', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.date('day').notNullable();
    table.text('entity_id').notNullable();
    table.text('currency').notNullable();
    table.boolean('deposited').notNullable().defaultTo(false);
    money(table);
    table.primary(['operator_id', 'day', 'entity_id', 'currency']);
    table.index(['operator_id', 'entity_id'], 'analytics_player_days_entity_idx');
  });
  const games = (table: Knex.CreateTableBuilder): void => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('currency').notNullable();
    table.text('game_name').notNullable();
    table.bigInteger('rounds').notNullable().defaultTo(0);
    table.decimal('bets', null).notNullable().defaultTo(0);
    table.decimal('wins', null).notNullable().defaultTo(0);
  };
  await db.schema.createTable('analytics_games', (table) => {
    games(table);
    table.bigInteger('unique_players').notNullable().defaultTo(0);
    table.primary(['operator_id', 'currency', 'game_name']);
  });
  await db.schema.createTable('analytics_game_players', (table) => {
    games(table);
    table.text('entity_id').notNullable();
    table.primary(['operator_id', 'entity_id', 'currency', 'game_name']);
  });
  const providers = (table: Knex.CreateTableBuilder): void => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('currency').notNullable();
    table.text('provider').notNullable();
    table.bigInteger('volume').notNullable().defaultTo(0);
    table.decimal('total_amount', null).notNullable().defaultTo(0);
    table.bigInteger('completed').notNullable().defaultTo(0);
    table.decimal('deposits', null).notNullable().defaultTo(0);
    table.decimal('withdrawals', null).notNullable().defaultTo(0);
  };
  await db.schema.createTable('analytics_providers', (table) => {
    providers(table);
    table.primary(['operator_id', 'currency', 'provider']);
  });
  await db.schema.createTable('analytics_provider_players', (table) => {
    providers(table);
    table.text('entity_id').notNullable();
    table.primary(['operator_id', 'entity_id', 'currency', 'provider']);
  });
  await db.schema.createTable('analytics_rollup_erased', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('entity_id').notNullable();
    table.primary(['operator_id', 'entity_id']);
  });
  await db.schema.createTable('analytics_rollup_state', (table) => {
    table.smallint('id').primary();
    table.bigInteger('cursor_xid').notNullable().defaultTo(0);
    table.text('cursor_id').notNullable().defaultTo('');
    table.bigInteger('pending_xmax');
    table.timestamp('pending_at', { useTz: true });
    table.bigInteger('events_read').notNullable().defaultTo(0);
    table.check('id = 1', [], 'analytics_rollup_state_single');
  });
  await db('analytics_rollup_state').insert({ id: 1 });
  // The recorded time is now the rollups' watermark: until their first pass, the raw tables answer.
  await db('analytics_refreshes').where({ view_set: 'analytics' }).delete();
}

export async function down(db: Knex): Promise<void> {
  for (const table of [
    'analytics_rollup_state',
    'analytics_rollup_erased',
    'analytics_provider_players',
    'analytics_providers',
    'analytics_game_players',
    'analytics_games',
    'analytics_player_days',
    'analytics_daily',
  ]) {
    await db.schema.dropTable(table);
  }
  await db.raw('DROP INDEX entities_erased_idx');
  await db.raw('DROP INDEX entity_events_rollup_idx');
  await db.raw('ALTER TABLE entity_events DROP COLUMN ingest_xid');
  await db('analytics_refreshes').where({ view_set: 'analytics' }).delete();
}
