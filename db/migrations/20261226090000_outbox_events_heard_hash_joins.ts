import type { Knex } from 'knex';
import { up as createPrevious } from './20261225090000_create_outbox_events_heard';

/**
 * `outbox_events_heard` (20261225090000) with plans that do not depend on the tables' statistics (issue 40).
 *
 * Before `automations` and `automation_trigger_keys` are first analyzed — a new database, or the minute after an
 * organisation made its automations — the planner took one row for each and joined the operator's keys to its
 * automations by a nested loop: 200 automations made 200 scans of 200 keys, 12–35 ms a call, 2 ms of PostgreSQL per
 * event at 500 single events a second (bench:dispatch filtering; 0.7 ms before the batch form). So the function plans
 * without nested loops (`enable_nestloop` off): the operator's listening keys and its automations are each read once
 * and hashed, then the batch's events are keyed against them, whatever the statistics say. A call costs the reads of
 * the operator's keys and automations for the batch's names plus a hash probe per event and path.
 *
 * The one look that must stay a probe, whether a run waits on a name (an organisation may have thousands waiting), is
 * a lateral `LIMIT 1`, which only a nested loop can run. The rule is unchanged; test/integration/listening-narrowing.test.ts
 * holds it to `outbox_event_heard`'s answers.
 */
const HEARD_BATCH = `
  CREATE OR REPLACE FUNCTION outbox_events_heard(operator uuid, occurred timestamptz, origin text, events text[], datas jsonb[])
  RETURNS TABLE (ord bigint, heard boolean) LANGUAGE sql STABLE SET enable_nestloop = off AS $$
    WITH input AS (
      SELECT u.event, u.data, u.ord FROM unnest(events, datas) WITH ORDINALITY AS u(event, data, ord)
    ), names AS (
      SELECT DISTINCT input.event FROM input
    ), live AS (
      SELECT w.id FROM automations w
       WHERE w.operator_id = operator AND w.active AND w.deleted_at IS NULL AND w.trigger_events <> '{}'
         AND occurred >= w.events_since AND w.id IS DISTINCT FROM origin
    ), listened AS (
      SELECT k.event, k.path, k.value_key FROM automation_trigger_keys k JOIN live ON live.id = k.automation_id
       WHERE k.operator_id = operator AND k.event IN (SELECT names.event FROM names)
    ), always AS (
      SELECT listened.event FROM listened WHERE listened.path IS NULL
      UNION
      SELECT names.event FROM names
        CROSS JOIN LATERAL (SELECT 1 FROM automation_run_waits r WHERE r.operator_id = operator AND r.event = names.event LIMIT 1) waiting
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
  await createPrevious(db);
}
