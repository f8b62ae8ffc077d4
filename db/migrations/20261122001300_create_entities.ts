import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('entities', (table) => {
    table.text('id').primary();
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('entity_type').notNullable();
    table.text('external_id').notNullable();
    table.jsonb('data').notNullable();
    table.timestamp('deleted_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.unique(['operator_id', 'external_id'], { indexName: 'entities_operator_external_unique' });
    table.index(['operator_id', 'entity_type', 'created_at'], 'entities_operator_type_created_idx');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('entities');
}
