import type { Knex } from 'knex';

/**
 * A run's large step values, stored apart from its record (core/automations/runValues.ts, docs/workflows.md "Large
 * step values"): the JSON of one step's input or output, cut into chunks of 256 Ki characters, each sealed on its own
 * (bound to operator, run, step, part and chunk) so the streaming endpoint holds one chunk at a time. `bytes` is the
 * whole value's UTF-8 size, on every chunk. Deleted with the run; erasure deletes a redacted run's values.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('workflow_run_values', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('run_id').notNullable().references('id').inTable('workflow_runs').onDelete('CASCADE');
    table.text('node_id').notNullable();
    table.text('part').notNullable();
    table.integer('seq').notNullable();
    table.bigInteger('bytes').notNullable();
    table.text('sealed').notNullable();
    table.primary(['run_id', 'node_id', 'part', 'seq']);
  });
  await db.raw("ALTER TABLE workflow_run_values ADD CONSTRAINT workflow_run_values_part CHECK (part IN ('input', 'output'))");
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('workflow_run_values');
}
