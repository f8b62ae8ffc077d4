import type { Knex } from 'knex';

/**
 * Bulk replays: one job reruns every failed run of an automation started in `[range_from, range_to)` and finished
 * before the job was created (`created_at`), each from its failed step (docs/workflows.md "Rerun and replay"). Its
 * Temporal workflow (`runReplayWorkflow`) keeps the counters: `started` as it starts reruns, `succeeded` and `failed`
 * counted from the reruns' own rows. At most one running replay per automation (the partial unique index).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('run_replays', (table) => {
    table.text('id').primary();
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('workflow_id').notNullable().references('id').inTable('workflows').onDelete('CASCADE');
    table.timestamp('range_from', { useTz: true }).notNullable();
    table.timestamp('range_to', { useTz: true }).notNullable();
    table.text('version').notNullable();
    table.integer('rate_per_second').notNullable();
    table.text('status').notNullable().defaultTo('running');
    table.integer('total').notNullable().defaultTo(0);
    table.integer('started').notNullable().defaultTo(0);
    table.integer('succeeded').notNullable().defaultTo(0);
    table.integer('failed').notNullable().defaultTo(0);
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('completed_at', { useTz: true });
    table.index(['operator_id', 'workflow_id', 'created_at'], 'run_replays_workflow_idx');
  });
  await db.raw("ALTER TABLE run_replays ADD CONSTRAINT run_replays_id_prefix CHECK (id LIKE 'rpl\\_%')");
  await db.raw("ALTER TABLE run_replays ADD CONSTRAINT run_replays_status CHECK (status IN ('running', 'completed', 'cancelled', 'failed'))");
  await db.raw("ALTER TABLE run_replays ADD CONSTRAINT run_replays_version CHECK (version IN ('run', 'current'))");
  await db.raw("CREATE UNIQUE INDEX run_replays_one_running_idx ON run_replays (operator_id, workflow_id) WHERE status = 'running'");
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('run_replays');
}
