import type { Knex } from 'knex';

/**
 * Wakes the event dispatchers when internal events are written: one `NOTIFY outbox_events` per
 * inserting statement, delivered when its transaction commits (PostgreSQL folds repeats within a
 * transaction), so a batch of 5,000 events costs one notification and no writer changes.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE FUNCTION notify_outbox_events() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('outbox_events', '');
      RETURN NULL;
    END $$`);
  await db.raw('CREATE TRIGGER outbox_events_notify AFTER INSERT ON outbox_events FOR EACH STATEMENT EXECUTE FUNCTION notify_outbox_events()');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP TRIGGER outbox_events_notify ON outbox_events');
  await db.raw('DROP FUNCTION notify_outbox_events()');
}
