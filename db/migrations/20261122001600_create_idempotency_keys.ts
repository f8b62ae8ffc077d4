import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('idempotency_keys', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('key').notNullable();
    table.specificType('request_hash', 'char(64)').notNullable();
    table.integer('response_status');
    table.jsonb('response_body');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.primary(['operator_id', 'key']);
    table.index(['expires_at'], 'idempotency_keys_expires_idx');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('idempotency_keys');
}
