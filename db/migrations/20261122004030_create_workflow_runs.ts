import type { Knex } from 'knex';

/**
 * Automation runs (DESIGN.md "Run"). `temporal_workflow_id` is unique: a second start of the same
 * Temporal id (an outbox event delivered twice to one workflow) finds the first run instead of making
 * another. `usage_month` and the reserved counts let the run settle its quota reservation once.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('workflow_runs', (table) => {
    table.text('id').primary();
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('workflow_id').notNullable().references('id').inTable('workflows').onDelete('CASCADE');
    table.integer('workflow_version').notNullable();
    table.text('source').notNullable();
    table.text('status').notNullable();
    table.text('trigger_node_id');
    table.text('temporal_workflow_id').notNullable().unique();
    table.jsonb('input');
    table.jsonb('output');
    table.jsonb('nodes').notNullable().defaultTo('[]');
    table.jsonb('error');
    table.text('usage_month').notNullable();
    table.integer('reserved_actions').notNullable().defaultTo(0);
    table.integer('reserved_ai_actions').notNullable().defaultTo(0);
    table.timestamp('started_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('completed_at', { useTz: true });
    table.integer('duration_ms');
    table.index(['operator_id', 'workflow_id', 'started_at']);
  });
  await db.raw("ALTER TABLE workflow_runs ADD CONSTRAINT workflow_runs_id_prefix CHECK (id LIKE 'run\\_%')");
  await db.raw("ALTER TABLE workflow_runs ADD CONSTRAINT workflow_runs_source CHECK (source IN ('manual', 'webhook', 'schedule', 'event', 'mcp'))");
  await db.raw("ALTER TABLE workflow_runs ADD CONSTRAINT workflow_runs_status CHECK (status IN ('running', 'completed', 'failed'))");
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('workflow_runs');
}
