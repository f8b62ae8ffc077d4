import type { Knex } from 'knex';

/**
 * Internal events (spec 6.1), written in the same transaction as the change that caused them; the
 * workflow engine dispatches them. `seq` orders delivery; undispatched rows are found by a partial index.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('outbox_events', (table) => {
    table.bigIncrements('seq').primary();
    table.text('id').notNullable().unique();
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('event').notNullable();
    table.jsonb('payload').notNullable();
    table.timestamp('occurred_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('dispatched_at', { useTz: true });
    table.index(['operator_id', 'seq']);
  });
  await db.raw('CREATE INDEX outbox_events_pending_idx ON outbox_events (seq) WHERE dispatched_at IS NULL');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('outbox_events');
}
