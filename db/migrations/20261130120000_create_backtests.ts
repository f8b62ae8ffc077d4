import type { Knex } from 'knex';

/**
 * Backtests (docs/compliance.md "Backtest"): one job replays an operator's stored trigger history of `[range_from,
 * range_to)` through a definition of an automation (`definition`, a saved version's or a draft sent with the request)
 * and through the version active when the job was created (`baseline_definition`), with every side effect stubbed.
 * Its Temporal workflow (`backtestWorkflow`) advances `cursor` (the last outbox `seq` replayed) page by page, adding to
 * `tallies` in the same transaction, so a retried page counts once; the players each side would act for are in
 * `backtest_players`. At most one running backtest per operator (the partial unique index).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('backtests', (table) => {
    table.text('id').primary();
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('workflow_id').notNullable().references('id').inTable('workflows').onDelete('CASCADE');
    table.integer('version').comment('The saved version backtested; null for a draft sent with the request');
    table.jsonb('definition').notNullable();
    table.jsonb('sample_outputs').notNullable().defaultTo('{}');
    table.integer('baseline_version').notNullable();
    table.boolean('baseline_active').notNullable();
    table.jsonb('baseline_definition').notNullable();
    table.timestamp('range_from', { useTz: true }).notNullable();
    table.timestamp('range_to', { useTz: true }).notNullable();
    table.text('status').notNullable().defaultTo('running');
    table.bigInteger('cursor').notNullable().defaultTo(0);
    table.bigInteger('last_seq').notNullable().defaultTo(0).comment('The last outbox seq of the range when the job was created: later events never join');
    table.integer('total').notNullable().defaultTo(0);
    table.integer('processed').notNullable().defaultTo(0);
    table.jsonb('tallies');
    table.jsonb('result');
    table.jsonb('error');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('completed_at', { useTz: true });
    table.index(['operator_id', 'workflow_id', 'created_at'], 'backtests_workflow_idx');
  });
  await db.raw("ALTER TABLE backtests ADD CONSTRAINT backtests_id_prefix CHECK (id LIKE 'bkt\\_%')");
  await db.raw("ALTER TABLE backtests ADD CONSTRAINT backtests_status CHECK (status IN ('running', 'completed', 'cancelled', 'failed'))");
  await db.raw("CREATE UNIQUE INDEX backtests_one_running_idx ON backtests (operator_id) WHERE status = 'running'");

  await db.schema.createTable('backtest_players', (table) => {
    table.text('backtest_id').notNullable().references('id').inTable('backtests').onDelete('CASCADE');
    table.uuid('operator_id').notNullable();
    table.text('side').notNullable();
    table.text('entity_id').notNullable();
    table.text('external_id').notNullable();
    table.integer('actions').notNullable();
    table.primary(['backtest_id', 'side', 'entity_id']);
  });
  await db.raw("ALTER TABLE backtest_players ADD CONSTRAINT backtest_players_side CHECK (side IN ('backtested', 'baseline'))");
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('backtest_players');
  await db.schema.dropTable('backtests');
}
