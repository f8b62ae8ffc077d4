import type { Knex } from 'knex';
import { triggerKeysOf } from '../../core/automations/triggerKeys';
import type { RunControl } from '../../core/automations/runControl';
import type { AutomationNode } from '../../core/automations/types';

/**
 * Narrowing at ingest (issue 40; docs/workflows.md "How events reach automations"). An event written pending costs a
 * dispatch pass; with 200 automations each waiting for its own `trigger.data.amount = n`, 99 % of the events no filter
 * takes paid one. `automation_trigger_keys` holds, per automation and event name, what its filters demand of the
 * event's data (core/automations/triggerKeys.ts), and `outbox_event_heard(…, data)` writes an event that holds none of
 * it already dispatched, as an event nobody listens to.
 *
 * Safe by default: any write of an automation's events (an older process, a script, SQL by hand) replaces its keys by
 * "every event" of each name it listens to; the create and update commands then narrow them in the same transaction.
 * Existing automations are narrowed here.
 */

/**
 * The key of a scalar as the dispatcher compares it (`scalarAt`, then `===`); `*` where it leaves the filter to judge. A
 * number is the double `JSON.parse` reads, by its bits (its text would follow the session's `extra_float_digits`); far
 * from a double's range it is `*`. So is a string sealed as PII is (`enc:v1:…`): the dispatcher opens those first.
 */
const TRIGGER_KEY_OF = `
  CREATE FUNCTION trigger_key_of(value jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE jsonb_typeof(value)
      WHEN 'string' THEN CASE WHEN starts_with(value #>> '{}', 'enc:v1:') THEN '*' ELSE 's:' || (value #>> '{}') END
      WHEN 'boolean' THEN 'b:' || (value #>> '{}')
      WHEN 'null' THEN 'z'
      WHEN 'number' THEN CASE
        WHEN abs((value #>> '{}')::numeric) = 0 THEN 'n:0'
        WHEN abs((value #>> '{}')::numeric) NOT BETWEEN 1e-300 AND 1e300 THEN '*'
        ELSE 'n:' || encode(float8send((value #>> '{}')::float8), 'hex') END
      ELSE '*' END
  $$`;

/** The key of the event data's value at `path`: null when a name is missing, `*` past anything but an object. */
const TRIGGER_KEY_AT = `
  CREATE FUNCTION trigger_key_at(data jsonb, path text[]) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
    DECLARE
      value jsonb := data;
      name text;
    BEGIN
      FOREACH name IN ARRAY path LOOP
        IF jsonb_typeof(value) IS DISTINCT FROM 'object' THEN RETURN '*'; END IF;
        value := value -> name;
        IF value IS NULL THEN RETURN NULL; END IF;
      END LOOP;
      RETURN trigger_key_of(value);
    END
  $$`;

/** Whether an automation of the operator hears an event of that time and origin: `outbox_event_heard`'s rule. */
const LISTENING = `w.active AND w.deleted_at IS NULL AND w.trigger_events <> '{}' AND occurred >= w.events_since AND w.id IS DISTINCT FROM origin`;

/**
 * `outbox_event_heard` with the event's data: an automation hears the event through a key with no path, or one whose
 * path holds its value (or a value only the filter can judge). The paths are read one index probe each (a loose index
 * scan), so the look costs per distinct path, not per automation. PL/pgSQL, so its statements' plans are kept per
 * connection: as one SQL statement it was planned on every call (2 ms per event in bench:dispatch).
 */
const HEARD_WITH_DATA = `
  CREATE FUNCTION outbox_event_heard(operator uuid, event text, occurred timestamptz, origin text, data jsonb) RETURNS boolean
  LANGUAGE plpgsql STABLE AS $$
    DECLARE
      at text[];
      held text;
    BEGIN
      IF EXISTS (SELECT 1 FROM automation_trigger_keys k JOIN automations w ON w.id = k.automation_id AND w.operator_id = k.operator_id
                  WHERE k.operator_id = operator AND k.event = outbox_event_heard.event AND k.path IS NULL AND ${LISTENING}) THEN
        RETURN true;
      END IF;
      at := (SELECT k.path FROM automation_trigger_keys k
              WHERE k.operator_id = operator AND k.event = outbox_event_heard.event AND k.path IS NOT NULL ORDER BY k.path LIMIT 1);
      WHILE at IS NOT NULL LOOP
        held := trigger_key_at(data, at);
        IF held = '*' THEN
          -- A value only the filter can judge: every automation keyed at the path hears it.
          IF EXISTS (SELECT 1 FROM automation_trigger_keys k JOIN automations w ON w.id = k.automation_id AND w.operator_id = k.operator_id
                      WHERE k.operator_id = operator AND k.event = outbox_event_heard.event AND k.path = at AND ${LISTENING}) THEN
            RETURN true;
          END IF;
        ELSIF held IS NOT NULL THEN
          IF EXISTS (SELECT 1 FROM automation_trigger_keys k JOIN automations w ON w.id = k.automation_id AND w.operator_id = k.operator_id
                      WHERE k.operator_id = operator AND k.event = outbox_event_heard.event AND k.path = at AND k.value_key = held
                        AND ${LISTENING}) THEN
            RETURN true;
          END IF;
        END IF;
        at := (SELECT k.path FROM automation_trigger_keys k
                WHERE k.operator_id = operator AND k.event = outbox_event_heard.event AND k.path > at ORDER BY k.path LIMIT 1);
      END LOOP;
      RETURN EXISTS (SELECT 1 FROM automation_run_waits r WHERE r.operator_id = operator AND r.event = outbox_event_heard.event);
    END
  $$`;

/** Any write of an automation's events leaves it hearing every event of each: the commands narrow it afterwards. */
const EVERY_EVENT = `
  CREATE FUNCTION automation_trigger_keys_every_event() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    DELETE FROM automation_trigger_keys WHERE operator_id = NEW.operator_id AND automation_id = NEW.id;
    INSERT INTO automation_trigger_keys (operator_id, automation_id, event)
      SELECT NEW.operator_id, NEW.id, e FROM unnest(NEW.trigger_events) e;
    RETURN NULL;
  END
  $$`;

export async function up(db: Knex): Promise<void> {
  await db.raw(`CREATE TABLE automation_trigger_keys (
    operator_id uuid NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
    automation_id text NOT NULL REFERENCES automations(id) ON DELETE CASCADE,
    event text NOT NULL,
    path text[],
    value_key text,
    CHECK ((path IS NULL) = (value_key IS NULL))
  )`);
  await db.raw('CREATE INDEX automation_trigger_keys_lookup ON automation_trigger_keys (operator_id, event, path, value_key)');
  await db.raw('CREATE INDEX automation_trigger_keys_automation ON automation_trigger_keys (automation_id)');
  await db.raw(TRIGGER_KEY_OF);
  await db.raw(TRIGGER_KEY_AT);
  await db.raw(HEARD_WITH_DATA);
  await db.raw(EVERY_EVENT);
  await db.raw(`CREATE TRIGGER automations_trigger_keys AFTER INSERT OR UPDATE OF trigger_events, nodes, run_control ON automations
                FOR EACH ROW EXECUTE FUNCTION automation_trigger_keys_every_event()`);
  const automations = await db('automations')
    .whereRaw("trigger_events <> '{}'")
    .select<Array<{ id: string; operator_id: string; nodes: AutomationNode[]; run_control: RunControl | null }>>('id', 'operator_id', 'nodes', 'run_control');
  for (const automation of automations) {
    const rows = triggerKeysOf(automation.nodes, automation.run_control).map((key) => ({
      operator_id: automation.operator_id,
      automation_id: automation.id,
      event: key.event,
      path: key.path,
      value_key: key.path === null ? null : db.raw('trigger_key_of(?::jsonb)', [JSON.stringify(key.value)]),
    }));
    if (rows.length > 0) await db('automation_trigger_keys').insert(rows);
  }
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP TRIGGER automations_trigger_keys ON automations');
  await db.raw('DROP FUNCTION automation_trigger_keys_every_event()');
  await db.raw('DROP FUNCTION outbox_event_heard(uuid, text, timestamptz, text, jsonb)');
  await db.raw('DROP FUNCTION trigger_key_at(jsonb, text[])');
  await db.raw('DROP FUNCTION trigger_key_of(jsonb)');
  await db.raw('DROP TABLE automation_trigger_keys');
}
