import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('refresh_tokens', (table) => {
    table.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.uuid('member_id').notNullable().references('id').inTable('members').onDelete('CASCADE');
    table.specificType('token_hash', 'char(64)').notNullable().unique();
    table.integer('session_version').notNullable();
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.timestamp('used_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.index(['member_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('refresh_tokens');
}
