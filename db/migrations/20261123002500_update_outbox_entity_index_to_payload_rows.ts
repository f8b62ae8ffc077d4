import type { Knex } from 'knex';

/**
 * Erasure rewrites only outbox rows that carry a payload (`entity.created`, `entity.updated`, …); a recorded
 * event's thin row reads its data through `source_event_id`, whose redaction shows through. Indexing only the
 * payload rows spares every ingested event an index entry.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('DROP INDEX outbox_events_entity_idx');
  await db.raw('CREATE INDEX outbox_events_entity_idx ON outbox_events (operator_id, entity_id) WHERE entity_id IS NOT NULL AND payload IS NOT NULL');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX outbox_events_entity_idx');
  await db.raw('CREATE INDEX outbox_events_entity_idx ON outbox_events (operator_id, entity_id) WHERE entity_id IS NOT NULL');
}
