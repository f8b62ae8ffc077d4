import type { Knex } from 'knex';

/**
 * Internal events (spec 6.1), written in the same transaction as the change that caused them; the
 * workflow engine dispatches them in `seq` order (undispatched rows through a partial index).
 * An event recorded through the data API is a thin row pointing at its `entity_events` row
 * (`source_event_id`, no payload): bulk ingestion does not write every event's data twice, and
 * erasure's redaction shows through. `entity_id` lets erasure find an entity's other events.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('outbox_events', (table) => {
    table.bigIncrements('seq').primary();
    table.text('id').notNullable();
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('event').notNullable();
    table.text('entity_id');
    table.text('source_event_id');
    table.jsonb('payload');
    table.timestamp('occurred_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('dispatched_at', { useTz: true });
    table.check('payload IS NOT NULL OR source_event_id IS NOT NULL', [], 'outbox_events_payload_or_source');
  });
  await db.raw('CREATE INDEX outbox_events_pending_idx ON outbox_events (seq) WHERE dispatched_at IS NULL');
  await db.raw('CREATE INDEX outbox_events_entity_idx ON outbox_events (operator_id, entity_id) WHERE entity_id IS NOT NULL');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('outbox_events');
}
