import type { Knex } from 'knex';

/**
 * The one rule of which automations an internal event can fire, for SQL: an active automation of the same
 * operator with an event trigger on it, created or activated before it happened, other than the automation
 * whose run wrote it. Writers use it to store events nobody listens to already dispatched; the dispatcher uses
 * it to settle the rest. A plain SQL function, so PostgreSQL inlines it into each statement.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE FUNCTION outbox_event_heard(operator uuid, event text, occurred timestamptz, origin text) RETURNS boolean
    LANGUAGE sql STABLE AS $$
      SELECT EXISTS (
        SELECT 1 FROM workflows w
         WHERE w.operator_id = operator AND w.active AND w.deleted_at IS NULL AND w.trigger_events <> '{}'
           AND w.trigger_events @> ARRAY[event] AND occurred >= w.events_since AND w.id IS DISTINCT FROM origin)
    $$`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP FUNCTION outbox_event_heard(uuid, text, timestamptz, text)');
}
