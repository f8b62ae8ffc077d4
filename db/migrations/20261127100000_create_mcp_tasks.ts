import type { Knex } from 'knex';

/**
 * MCP tasks: a `tools/call` an agent asked to run as a task (MCP 2025-11-25 `tasks`, the 2026-07-28
 * `io.modelcontextprotocol/tasks` extension). A task is the handle on one automation run: its status is read from
 * the run's row, so any API instance answers `tasks/get` with one indexed read, and the task outlives the process
 * that created it. It belongs to the operator and to the API key that created it (another key of the same operator
 * neither sees nor cancels it). `status_message` caches the run's progress, refreshed at most every few seconds.
 * Purged by the retention run after `expires_at` (creation + the task's TTL).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('mcp_tasks', (table) => {
    table.text('id').primary();
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.uuid('api_key_id').notNullable();
    table.text('run_id').notNullable();
    table.text('temporal_workflow_id').notNullable();
    table.text('tool_name').notNullable();
    table.boolean('structured').notNullable().defaultTo(false);
    table.text('status_message');
    table.timestamp('progress_checked_at', { useTz: true });
    table.boolean('cancel_requested').notNullable().defaultTo(false);
    table.integer('ttl_ms').notNullable();
    table.integer('poll_interval_ms').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('last_updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.index(['operator_id', 'api_key_id', 'created_at'], 'mcp_tasks_key_idx');
    table.index(['expires_at'], 'mcp_tasks_expires_idx');
    table.index(['operator_id', 'run_id'], 'mcp_tasks_run_idx');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('mcp_tasks');
}
