import type { Knex } from 'knex';

/**
 * Wakes the event dispatchers only for rows still to dispatch: ingestion writes the events no automation
 * listens to already dispatched (`db/ingest/events.ts`), and those inserts neither call `pg_notify` (nor take
 * PostgreSQL's commit-time notification lock) nor start a dispatcher pass. A row trigger with a WHEN clause
 * skips settled rows without calling any function; PostgreSQL folds the repeats of a transaction into one
 * notification.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('DROP TRIGGER outbox_events_notify ON outbox_events');
  await db.raw(`CREATE TRIGGER outbox_events_notify AFTER INSERT ON outbox_events FOR EACH ROW WHEN (NEW.dispatched_at IS NULL)
                EXECUTE FUNCTION notify_outbox_events()`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP TRIGGER outbox_events_notify ON outbox_events');
  await db.raw('CREATE TRIGGER outbox_events_notify AFTER INSERT ON outbox_events FOR EACH STATEMENT EXECUTE FUNCTION notify_outbox_events()');
}
