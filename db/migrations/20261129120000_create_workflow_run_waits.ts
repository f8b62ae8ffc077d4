import type { Knex } from 'knex';

/**
 * Runs waiting in an `action.wait_for_event`, one row per waiting node: the outbox dispatcher finds the runs an event
 * wakes by (operator, event, external id) and signals each by its Temporal workflow id. The row lives as long as the
 * wait (the run removes it when the event came or the wait timed out); `since` is when the wait began (an event counts
 * from then), `until` when it times out.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('workflow_run_waits', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('run_id').notNullable();
    table.text('node_id').notNullable();
    table.text('temporal_workflow_id').notNullable();
    table.text('event').notNullable();
    table.text('external_id').notNullable();
    table.timestamp('since', { useTz: true }).notNullable();
    table.timestamp('until', { useTz: true }).notNullable();
    table.primary(['operator_id', 'run_id', 'node_id']);
    table.index(['operator_id', 'event', 'external_id'], 'workflow_run_waits_lookup_idx');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('workflow_run_waits');
}
