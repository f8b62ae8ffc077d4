import type { Knex } from 'knex';

const TRIGGERS = `SELECT 1 FROM workflows w
         WHERE w.operator_id = operator AND w.active AND w.deleted_at IS NULL AND w.trigger_events <> '{}'
           AND w.trigger_events @> ARRAY[event] AND occurred >= w.events_since AND w.id IS DISTINCT FROM origin`;

/**
 * An event is also heard when a run of the same operator waits for that event name (`workflow_run_waits`), so it is
 * written pending and the dispatcher signals the waiting runs (worker/runWaitSignals.ts). Whose event it is (the
 * external id) is not known here: the dispatcher narrows by it. A run's own automation may wake it: waiting is not
 * triggering, so the self-trigger rule does not apply.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE OR REPLACE FUNCTION outbox_event_heard(operator uuid, event text, occurred timestamptz, origin text) RETURNS boolean
    LANGUAGE sql STABLE AS $$
      SELECT EXISTS (${TRIGGERS})
          OR EXISTS (SELECT 1 FROM workflow_run_waits r WHERE r.operator_id = operator AND r.event = outbox_event_heard.event)
    $$`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`
    CREATE OR REPLACE FUNCTION outbox_event_heard(operator uuid, event text, occurred timestamptz, origin text) RETURNS boolean
    LANGUAGE sql STABLE AS $$
      SELECT EXISTS (${TRIGGERS})
    $$`);
}
