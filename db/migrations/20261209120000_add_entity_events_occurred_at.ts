import type { Knex } from 'knex';

/**
 * An event's own time beside its arrival (issue 45): `occurred_at` is `data.timestamp` when the event carries one
 * (core/occurrence.ts), else the arrival. Rows written before it occurred when they arrived, so they are backfilled
 * from `created_at` (the column is added without a default first: a default of `now()` would stamp every old row
 * with the migration's time). Analytics buckets and ranges read it through `(operator_id, occurred_at)`. The archive
 * keeps it too, so a retention move loses nothing.
 */
export async function up(db: Knex): Promise<void> {
  for (const table of ['entity_events', 'entity_events_archive']) {
    await db.raw(`ALTER TABLE ${table} ADD COLUMN occurred_at timestamptz`);
    await db.raw(`UPDATE ${table} SET occurred_at = created_at`);
    await db.raw(`ALTER TABLE ${table} ALTER COLUMN occurred_at SET DEFAULT now(), ALTER COLUMN occurred_at SET NOT NULL`);
  }
  await db.raw('CREATE INDEX entity_events_occurred_idx ON entity_events (operator_id, occurred_at)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX entity_events_occurred_idx');
  for (const table of ['entity_events', 'entity_events_archive']) await db.raw(`ALTER TABLE ${table} DROP COLUMN occurred_at`);
}
