import type { Knex } from 'knex';

/**
 * Delivery ids the webhook receiver has started a run for (`webhook-id`), per operator and webhook, so a replayed
 * or retried delivery starts no second run. `run_id` is the first delivery's run, answered again to a repeat. Rows
 * go with their webhook and are purged after the retention window by the daily retention run.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('webhook_deliveries', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('webhook_id').notNullable().references('id').inTable('workflow_webhooks').onDelete('CASCADE');
    table.text('delivery_id').notNullable();
    table.text('run_id');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.primary(['operator_id', 'webhook_id', 'delivery_id']);
    table.index(['created_at'], 'webhook_deliveries_created_idx');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('webhook_deliveries');
}
