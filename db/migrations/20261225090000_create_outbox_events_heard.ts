import type { Knex } from 'knex';

/**
 * `outbox_event_heard(…, data)` (20261224090000) for a whole batch of events at once, in one statement (issue 40,
 * docs/workflows.md "How events reach automations"). Called once per row, the function probed the keys' index four or
 * five times an event: about 0.1 ms each, half of a 1,000-event chunk's insert. Here the operator's listening keys of
 * the batch's event names are read once, each event's data is keyed once per distinct path, and the rest is joins.
 * The rule is the same; test/integration/listening-narrowing.test.ts holds the two to the same answers.
 */
const HEARD_BATCH = `
  CREATE FUNCTION outbox_events_heard(operator uuid, occurred timestamptz, origin text, events text[], datas jsonb[])
  RETURNS TABLE (ord bigint, heard boolean) LANGUAGE sql STABLE AS $$
    WITH input AS (
      SELECT u.event, u.data, u.ord FROM unnest(events, datas) WITH ORDINALITY AS u(event, data, ord)
    ), names AS (
      SELECT DISTINCT input.event FROM input
    ), listened AS (
      SELECT k.event, k.path, k.value_key FROM automation_trigger_keys k
        JOIN automations w ON w.id = k.automation_id AND w.operator_id = k.operator_id
       WHERE k.operator_id = operator AND k.event IN (SELECT names.event FROM names)
         AND w.active AND w.deleted_at IS NULL AND w.trigger_events <> '{}' AND occurred >= w.events_since
         AND w.id IS DISTINCT FROM origin
    ), always AS (
      SELECT listened.event FROM listened WHERE listened.path IS NULL
      UNION
      SELECT names.event FROM names
       WHERE EXISTS (SELECT 1 FROM automation_run_waits r WHERE r.operator_id = operator AND r.event = names.event)
    ), paths AS (
      SELECT DISTINCT listened.event, listened.path FROM listened WHERE listened.path IS NOT NULL
    ), held AS (
      SELECT input.ord, paths.event, paths.path, trigger_key_at(input.data, paths.path) AS value_key
        FROM input JOIN paths ON paths.event = input.event
    ), heard AS (
      SELECT input.ord FROM input WHERE input.event IN (SELECT always.event FROM always)
      UNION
      SELECT held.ord FROM held WHERE held.value_key = '*'
      UNION
      SELECT held.ord FROM held
        JOIN listened ON listened.event = held.event AND listened.path = held.path AND listened.value_key = held.value_key
    )
    SELECT input.ord, input.ord IN (SELECT heard.ord FROM heard) FROM input
  $$`;

export async function up(db: Knex): Promise<void> {
  await db.raw(HEARD_BATCH);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP FUNCTION outbox_events_heard(uuid, timestamptz, text, text[], jsonb[])');
}
