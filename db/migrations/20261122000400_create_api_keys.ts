import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('api_keys', (table) => {
    table.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.specificType('key_hash', 'char(64)').notNullable().unique();
    table.text('label').notNullable().defaultTo('');
    table.uuid('created_by_member_id').references('id').inTable('members').onDelete('SET NULL');
    table.boolean('revoked').notNullable().defaultTo(false);
    table.timestamp('revoked_at', { useTz: true });
    table.timestamp('last_used_at', { useTz: true });
    table.boolean('mcp_enabled').notNullable().defaultTo(false);
    table.jsonb('mcp_workflow_allowlist');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.index(['operator_id', 'created_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('api_keys');
}
