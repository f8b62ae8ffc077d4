import type { Knex } from 'knex';

/** Append-only events. No foreign key to entities: batch inserts stay cheap, and erasure redacts in place. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('entity_events', (table) => {
    table.text('id').primary();
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('entity_id').notNullable();
    table.text('event_type').notNullable();
    table.jsonb('data').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.index(['operator_id', 'entity_id', 'created_at'], 'entity_events_entity_created_idx');
    table.index(['operator_id', 'event_type', 'created_at'], 'entity_events_type_created_idx');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('entity_events');
}
