import type { Knex } from 'knex';

/**
 * One row per `trigger.webhook` node: the public webhook id (≥ 128 random bits, the receiver's only
 * lookup key), the node it fires, the optional provider name for `provider.webhook.<name>` and the
 * HMAC secret sealed with the keyring (bound to `operatorId:webhook:<id>`).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('workflow_webhooks', (table) => {
    table.text('id').primary();
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('workflow_id').notNullable().references('id').inTable('workflows').onDelete('CASCADE');
    table.text('node_id').notNullable();
    table.text('provider_name');
    table.text('secret_ciphertext');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.unique(['workflow_id', 'node_id']);
    table.index(['operator_id', 'workflow_id']);
  });
  await db.raw("ALTER TABLE workflow_webhooks ADD CONSTRAINT workflow_webhooks_id_prefix CHECK (id LIKE 'whk\\_%')");
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('workflow_webhooks');
}
