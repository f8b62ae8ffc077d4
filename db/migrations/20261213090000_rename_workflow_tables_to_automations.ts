import type { Knex } from 'knex';

/**
 * One word for one concept (issue 43): the automation tables, their columns, indexes, constraints, triggers and the
 * SQL that names them say *automation*, as the code does. Temporal's own workflow ids (`temporal_workflow_id`) keep
 * their name: they are Temporal's concept, not ours.
 *
 * Rolling deploy (docs/production.md "Migrations during a rolling deploy"): processes of the release before keep running
 * until they are replaced, so for one release this migration leaves them the names they use:
 * - a simple (automatically updatable) view under each old table name, with the old column names;
 * - on `api_keys` and `mcp_oauth_settings`, read on every API-key request and MCP token, the old allowlist column as a
 *   stored generated copy (old processes read it; their writes of it fail until they are replaced);
 * - `outbox_events`' origin default also reads the old setting `app.origin_workflow`, which old workers' data actions set;
 * - the cache trigger also sends `workflows:<operator_id>`, which old API processes listen for.
 * A migration of the release after drops all four (docs/production.md says what it holds). Columns renamed on the other
 * tables that keep their names (`backtests`, `run_replays`, `marketing_evidence`, `automation_lane_keys`,
 * `outbox_events`) can have no second name without copying the column: an old process's statement naming them fails
 * until it is replaced (an activity is retried by Temporal on a new worker).
 */

/** Old table name → new table name. */
const TABLES: ReadonlyArray<readonly [string, string]> = [
  ['workflows', 'automations'],
  ['workflow_versions', 'automation_versions'],
  ['workflow_runs', 'automation_runs'],
  ['workflow_run_values', 'automation_run_values'],
  ['workflow_run_waits', 'automation_run_waits'],
  ['workflow_trigger_skips', 'automation_trigger_skips'],
  ['workflow_usage', 'automation_usage'],
  ['workflow_webhooks', 'automation_webhooks'],
];

/** Columns that name the automation: table (its name after this migration), old column, new column. */
const COLUMNS: ReadonlyArray<readonly [string, string, string]> = [
  ['automation_versions', 'workflow_id', 'automation_id'],
  ['automation_runs', 'workflow_id', 'automation_id'],
  ['automation_runs', 'workflow_version', 'automation_version'],
  ['automation_trigger_skips', 'workflow_id', 'automation_id'],
  ['automation_trigger_skips', 'workflow_version', 'automation_version'],
  ['automation_webhooks', 'workflow_id', 'automation_id'],
  ['automation_lane_keys', 'workflow_id', 'automation_id'],
  ['backtests', 'workflow_id', 'automation_id'],
  ['run_replays', 'workflow_id', 'automation_id'],
  ['marketing_evidence', 'workflow_id', 'automation_id'],
  ['marketing_evidence', 'workflow_version', 'automation_version'],
  ['outbox_events', 'origin_workflow_id', 'origin_automation_id'],
  ['api_keys', 'mcp_workflow_allowlist', 'mcp_automation_allowlist'],
  ['mcp_oauth_settings', 'workflow_allowlist', 'automation_allowlist'],
];

/** Allowlists old processes read on hot paths: a generated copy under the old name for one release. */
const GENERATED_COPIES: ReadonlyArray<readonly [string, string, string, string]> = [
  ['api_keys', 'mcp_workflow_allowlist', 'mcp_automation_allowlist', 'jsonb'],
  ['mcp_oauth_settings', 'workflow_allowlist', 'automation_allowlist', 'text[]'],
];

/** Old trigger name → new trigger name, on `automations`. */
const TRIGGERS: ReadonlyArray<readonly [string, string]> = [
  ['workflows_invalidate_cache', 'automations_invalidate_cache'],
  ['workflows_mcp_tools_changed', 'automations_mcp_tools_changed'],
];

const SEQUENCES: ReadonlyArray<readonly [string, string]> = [['workflow_trigger_skips_id_seq', 'automation_trigger_skips_id_seq']];

/** A unique constraint whose generated name was already cut at 63 bytes: named explicitly both ways. */
const LONG_NAMES: ReadonlyArray<readonly [string, string]> = [
  ['workflow_trigger_skips_operator_id_workflow_id_event_id_reason_', 'automation_trigger_skips_operator_id_automation_id_event_unique'],
];

const RENAMED_TABLES = [...new Set([...TABLES.map(([, to]) => to), ...COLUMNS.map(([table]) => table)])];

/** An index, constraint or sequence name as it reads after the rename (Temporal's `temporal_workflow_id` kept). */
function automationName(name: string): string {
  const long = LONG_NAMES.find(([from]) => from === name);
  if (long) return long[1];
  const table = [...TABLES].sort((a, b) => b[0].length - a[0].length).find(([from]) => name.startsWith(`${from}_`));
  const renamed = table ? `${table[1]}${name.slice(table[0].length)}` : name;
  return renamed.replace(/(?<!temporal_)workflow_(id|version|idx|allowlist)/g, 'automation_$1');
}

/** The reverse of `automationName`, for `down`. */
function workflowName(name: string): string {
  const long = LONG_NAMES.find(([, to]) => to === name);
  if (long) return long[0];
  const table = [...TABLES].sort((a, b) => b[1].length - a[1].length).find(([, to]) => name.startsWith(`${to}_`));
  const renamed = table ? `${table[0]}${name.slice(table[1].length)}` : name;
  return renamed.replace(/(?<!temporal_)automation_(id|version|idx|allowlist)/g, 'workflow_$1');
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Renames every constraint, then every index not already renamed with its constraint, of `tables` by `rename`. */
async function renameNames(db: Knex, tables: string[], pattern: string, rename: (name: string) => string): Promise<void> {
  const constraints = (
    await db.raw<{ rows: Array<{ table: string; name: string }> }>(
      `SELECT c.conrelid::regclass::text AS table, c.conname AS name FROM pg_constraint c
        WHERE c.connamespace = current_schema()::regnamespace AND c.conrelid::regclass::text = ANY(?) AND c.conname ~ ?`,
      [tables, pattern],
    )
  ).rows;
  for (const { table, name } of constraints) {
    const to = rename(name);
    if (to !== name) await db.raw(`ALTER TABLE ${quote(table)} RENAME CONSTRAINT ${quote(name)} TO ${quote(to)}`);
  }
  const indexes = (
    await db.raw<{ rows: Array<{ name: string }> }>(
      `SELECT i.relname AS name FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
        WHERE i.relnamespace = current_schema()::regnamespace AND x.indrelid::regclass::text = ANY(?) AND i.relname ~ ?`,
      [tables, pattern],
    )
  ).rows;
  for (const { name } of indexes) {
    const to = rename(name);
    if (to !== name) await db.raw(`ALTER INDEX ${quote(name)} RENAME TO ${quote(to)}`);
  }
}

/** `outbox_event_heard` as in 20261129120100, over `tables` (`automations`/`automation_run_waits` or the old names). */
const outboxEventHeard = (automations: string, waits: string) => `
    CREATE OR REPLACE FUNCTION outbox_event_heard(operator uuid, event text, occurred timestamptz, origin text) RETURNS boolean
    LANGUAGE sql STABLE AS $$
      SELECT EXISTS (SELECT 1 FROM ${automations} w
         WHERE w.operator_id = operator AND w.active AND w.deleted_at IS NULL AND w.trigger_events <> '{}'
           AND w.trigger_events @> ARRAY[event] AND occurred >= w.events_since AND w.id IS DISTINCT FROM origin)
          OR EXISTS (SELECT 1 FROM ${waits} r WHERE r.operator_id = operator AND r.event = outbox_event_heard.event)
    $$`;

/** `notify_cache_invalidation` as in 20261123002000, plus, with `alsoAs`, the old table name old processes listen for. */
const notifyCacheInvalidation = (alsoAs?: readonly [string, string]) => `
    CREATE OR REPLACE FUNCTION notify_cache_invalidation() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_TABLE_NAME = 'api_keys' THEN
        PERFORM pg_notify('cache_invalidation', 'api_keys:' || OLD.key_hash);
      ELSIF TG_TABLE_NAME = 'members' THEN
        PERFORM pg_notify('cache_invalidation', 'members:' || OLD.operator_id || ':' || OLD.id);
      ELSE
        PERFORM pg_notify('cache_invalidation', TG_TABLE_NAME || ':' || COALESCE(NEW.operator_id, OLD.operator_id));${
          alsoAs
            ? `
        IF TG_TABLE_NAME = '${alsoAs[1]}' THEN
          PERFORM pg_notify('cache_invalidation', '${alsoAs[0]}:' || COALESCE(NEW.operator_id, OLD.operator_id));
        END IF;`
            : ''
        }
      END IF;
      RETURN NULL;
    END $$`;

const ORIGIN_BEFORE = "nullif(current_setting('app.origin_workflow', true), '')";
const ORIGIN_AFTER = "nullif(current_setting('app.origin_automation', true), '')";

/** Every column of `table`, in order, as the old name reads it: `automation_id AS workflow_id`. */
async function oldColumnsOf(db: Knex, table: string): Promise<string> {
  const { rows } = await db.raw<{ rows: Array<{ name: string }> }>(
    `SELECT attname AS name FROM pg_attribute WHERE attrelid = ?::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
    [table],
  );
  return rows
    .map(({ name }) => {
      const renamed = COLUMNS.find(([t, , to]) => t === table && to === name);
      return renamed ? `${quote(name)} AS ${quote(renamed[1])}` : quote(name);
    })
    .join(', ');
}

export async function up(db: Knex): Promise<void> {
    for (const [from, to] of TABLES) await db.raw(`ALTER TABLE ${quote(from)} RENAME TO ${quote(to)}`);
    for (const [table, from, to] of COLUMNS) await db.raw(`ALTER TABLE ${quote(table)} RENAME COLUMN ${quote(from)} TO ${quote(to)}`);
    await renameNames(db, RENAMED_TABLES, 'workflow', automationName);
    for (const [from, to] of SEQUENCES) await db.raw(`ALTER SEQUENCE ${quote(from)} RENAME TO ${quote(to)}`);
    for (const [from, to] of TRIGGERS) await db.raw(`ALTER TRIGGER ${quote(from)} ON automations RENAME TO ${quote(to)}`);
    await db.raw(outboxEventHeard('automations', 'automation_run_waits'));
    await db.raw(notifyCacheInvalidation(['workflows', 'automations']));
    await db.raw(`ALTER TABLE outbox_events ALTER COLUMN origin_automation_id SET DEFAULT coalesce(${ORIGIN_AFTER}, ${ORIGIN_BEFORE})`);

    for (const [from, to] of TABLES) await db.raw(`CREATE VIEW ${quote(from)} AS SELECT ${await oldColumnsOf(db, to)} FROM ${quote(to)}`);
    for (const [table, old, current, type] of GENERATED_COPIES) {
      await db.raw(`ALTER TABLE ${quote(table)} ADD COLUMN ${quote(old)} ${type} GENERATED ALWAYS AS (${quote(current)}) STORED`);
    }
}

export async function down(db: Knex): Promise<void> {
    for (const [table, old] of GENERATED_COPIES) await db.raw(`ALTER TABLE ${quote(table)} DROP COLUMN IF EXISTS ${quote(old)}`);
    for (const [from] of TABLES) await db.raw(`DROP VIEW IF EXISTS ${quote(from)}`);

    await db.raw(`ALTER TABLE outbox_events ALTER COLUMN origin_automation_id SET DEFAULT ${ORIGIN_BEFORE}`);
    await db.raw(notifyCacheInvalidation());
      for (const [from, to] of TRIGGERS) await db.raw(`ALTER TRIGGER ${quote(to)} ON automations RENAME TO ${quote(from)}`);
    for (const [from, to] of SEQUENCES) await db.raw(`ALTER SEQUENCE ${quote(to)} RENAME TO ${quote(from)}`);
    await renameNames(db, RENAMED_TABLES, 'automation', workflowName);
    for (const [table, from, to] of COLUMNS) await db.raw(`ALTER TABLE ${quote(table)} RENAME COLUMN ${quote(to)} TO ${quote(from)}`);
    for (const [from, to] of TABLES) await db.raw(`ALTER TABLE ${quote(to)} RENAME TO ${quote(from)}`);
  await db.raw(outboxEventHeard('workflows', 'workflow_run_waits'));
}
