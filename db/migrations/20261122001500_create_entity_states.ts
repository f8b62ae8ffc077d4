import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('entity_states', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('entity_id').notNullable();
    table.text('state_key').notNullable();
    table.jsonb('value').notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.primary(['operator_id', 'entity_id', 'state_key']);
    table.index(['operator_id', 'updated_at'], 'entity_states_operator_updated_idx');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('entity_states');
}
