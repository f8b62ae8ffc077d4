import type { Knex } from 'knex';

/** Archive storage for retention (spec 4.2 `retentionPolicy`): rows past `hot_days` move here until `archive_days`. */
export async function up(db: Knex): Promise<void> {
  await db.raw('CREATE TABLE entity_events_archive (LIKE entity_events INCLUDING DEFAULTS INCLUDING CONSTRAINTS)');
  await db.raw('ALTER TABLE entity_events_archive ADD PRIMARY KEY (id), ADD COLUMN archived_at timestamptz NOT NULL DEFAULT now()');
  await db.raw('CREATE INDEX entity_events_archive_entity_idx ON entity_events_archive (operator_id, entity_id)');
  await db.raw('CREATE INDEX entity_events_archive_created_idx ON entity_events_archive (operator_id, created_at)');
  await db.raw('CREATE TABLE entity_states_archive (LIKE entity_states INCLUDING DEFAULTS INCLUDING CONSTRAINTS)');
  await db.raw('ALTER TABLE entity_states_archive ADD PRIMARY KEY (operator_id, entity_id, state_key), ADD COLUMN archived_at timestamptz NOT NULL DEFAULT now()');
  await db.raw('CREATE INDEX entity_states_archive_updated_idx ON entity_states_archive (operator_id, updated_at)');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('entity_states_archive');
  await db.schema.dropTable('entity_events_archive');
}
