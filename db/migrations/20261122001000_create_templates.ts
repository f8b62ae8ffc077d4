import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('templates', (table) => {
    table.text('id').primary();
    table.text('name').notNullable();
    table.text('version').notNullable();
    table.jsonb('schema').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('templates');
}
