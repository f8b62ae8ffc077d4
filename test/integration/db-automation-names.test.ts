import { createDb, type Db } from '../../db/knex';
import * as rename from '../../db/migrations/20261213090000_rename_workflow_tables_to_automations';
import { createFaultyDatabase, type FaultyDatabase } from '../helpers/faultyDatabase';

/**
 * One word for one concept (issue 43, docs/running.md "Names"): the platform's schema says *automation*; *workflow*
 * is Temporal's (`temporal_workflow_id`). What the release before still reads during a rolling deploy is allowed by
 * name below, until the next release's migration drops it (docs/production.md "Migrations during a rolling deploy").
 */
const COMPAT_VIEWS = [
  'workflow_run_values',
  'workflow_run_waits',
  'workflow_runs',
  'workflow_trigger_skips',
  'workflow_usage',
  'workflow_versions',
  'workflow_webhooks',
  'workflows',
];
const COMPAT_COLUMNS = ['api_keys.mcp_workflow_allowlist', 'mcp_oauth_settings.workflow_allowlist'];
/** Fragments of SQL text kept for the release before: the cache channel and the origin setting it listens and writes. */
const COMPAT_SQL = [
  `IF TG_TABLE_NAME = 'automations' THEN
          PERFORM pg_notify('cache_invalidation', 'workflows:' || COALESCE(NEW.operator_id, OLD.operator_id));`,
  `current_setting('app.origin_workflow'::text, true)`,
];

/** Says "workflow" for the automation: any use but Temporal's own workflow id. */
const namesWorkflow = (text: string) => /workflow/i.test(text.replace(/temporal_workflow_id/g, ''));
const withoutCompat = (text: string) => COMPAT_SQL.reduce((rest, fragment) => rest.split(fragment).join(''), text);

interface Named {
  kind: string;
  name: string;
  text: string;
}

/**
 * Every named thing of the schema, with the SQL text it holds (definitions, defaults, bodies), in a stable order: a name
 * can stand twice (a NOT NULL constraint and a foreign key whose names PostgreSQL truncated to the same 63 bytes), so the
 * text breaks the tie.
 */
async function schemaOf(db: Db): Promise<Named[]> {
  const { rows } = await db.raw<{ rows: Named[] }>(`
    SELECT 'relation ' || c.relkind::text AS kind, c.relname AS name, CASE WHEN c.relkind IN ('v', 'm') THEN pg_get_viewdef(c.oid) ELSE '' END AS text
      FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'v', 'm', 'S', 'i', 'p')
    UNION ALL
    SELECT 'column', c.relname || '.' || a.attname, coalesce(pg_get_expr(d.adbin, d.adrelid), '')
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'v', 'm', 'p') AND a.attnum > 0 AND NOT a.attisdropped
    UNION ALL
    SELECT 'constraint', conrelid::regclass::text || '.' || conname, pg_get_constraintdef(oid)
      FROM pg_constraint WHERE connamespace = current_schema()::regnamespace
    UNION ALL
    SELECT 'trigger', tgrelid::regclass::text || '.' || tgname, pg_get_triggerdef(oid) FROM pg_trigger
     WHERE NOT tgisinternal AND tgrelid IN (SELECT oid FROM pg_class WHERE relnamespace = current_schema()::regnamespace)
    UNION ALL
    SELECT 'function', proname, prosrc FROM pg_proc WHERE pronamespace = current_schema()::regnamespace
    ORDER BY 1, 2, 3`);
  return rows;
}

/** What names `workflow` for the automation, leaving out what is allowed for the release before. */
function offenders(schema: Named[]): string[] {
  const views = new Set(schema.filter(({ kind, name }) => kind === 'relation v' && COMPAT_VIEWS.includes(name)).map(({ name }) => name));
  return schema
    .filter(({ kind, name, text }) => {
      if (kind === 'relation v' && views.has(name)) return false;
      if (kind === 'column' && (views.has(name.split('.')[0]!) || COMPAT_COLUMNS.includes(name))) return namesWorkflow(withoutCompat(text));
      return namesWorkflow(name) || namesWorkflow(withoutCompat(text));
    })
    .map(({ kind, name }) => `${kind} ${name}`);
}

describe('the schema says automation', () => {
  let db: Db;
  beforeAll(() => {
    db = createDb(process.env.DATABASE_URL!, { poolMax: 1 });
  });
  afterAll(() => db.destroy());

  it('no table, view, index, sequence, column, default, constraint, trigger or function names workflow but Temporal’s id and the allowed', async () => {
    const schema = await schemaOf(db);
    expect(offenders(schema)).toEqual([]);
    expect(schema.filter(({ kind }) => kind === 'relation v').map(({ name }) => name)).toEqual(expect.arrayContaining(COMPAT_VIEWS));
    for (const table of ['automations', 'automation_runs', 'automation_versions', 'automation_run_values', 'automation_run_waits']) {
      expect(schema).toContainEqual(expect.objectContaining({ kind: 'relation r', name: table }));
    }
    for (const heard of schema.filter(({ kind, name }) => kind === 'function' && name === 'outbox_event_heard')) {
      expect(heard.text).toMatch(/(FROM|JOIN) automations w/);
      expect(heard.text).toMatch(/FROM automation_run_waits r/);
    }
  });

  it('the allow-list holds only what is still there', async () => {
    const schema = await schemaOf(db);
    const texts = schema.map(({ text }) => text).join('\n');
    for (const fragment of COMPAT_SQL) expect(texts).toContain(fragment);
    for (const column of COMPAT_COLUMNS) expect(schema).toContainEqual(expect.objectContaining({ kind: 'column', name: column }));
  });
});

const ROLLBACK = new Error('rolled back on purpose');

describe('the rename, on a database of its own', () => {
  let fresh: FaultyDatabase;
  beforeAll(async () => {
    fresh = await createFaultyDatabase();
  });
  afterAll(() => fresh.drop());

  it('the release before keeps its names: writes through the views land in the renamed tables with their defaults', async () => {
    await fresh.db
      .transaction(async (trx) => {
        const [{ id: operatorId }] = await trx('operators').insert({ name: 'Old release' }).returning('id');
        await trx('workflows').insert({ id: 'wf_old', operator_id: operatorId, name: 'Old', mcp_tool_name: 'old', nodes: '[]', edges: '[]' });
        await trx('workflows')
          .insert({ id: 'wf_old', operator_id: operatorId, name: 'Old', mcp_tool_name: 'old', nodes: '[]', edges: '[]' })
          .onConflict('id')
          .merge({ name: 'Old, renamed' });
        const run = { id: 'run_old', operator_id: operatorId, workflow_id: 'wf_old', workflow_version: 1, source: 'manual', status: 'running' };
        await trx('workflow_runs').insert({ ...run, temporal_workflow_id: 'automation-old', usage_month: '2026-12' });
        await trx('workflow_runs').where({ workflow_id: 'wf_old' }).update({ status: 'completed' });
        await trx.raw("SELECT set_config('app.origin_workflow', 'wf_old', true)");
        const [outbox] = await trx('outbox_events')
          .insert({ id: 'evt_old', operator_id: operatorId, event: 'entity_event.session', payload: {} })
          .returning('origin_automation_id');
        const [key] = await trx('api_keys')
          .insert({ operator_id: operatorId, key_hash: 'hash', label: 'old', mcp_automation_allowlist: JSON.stringify(['wf_old']) })
          .returning('mcp_workflow_allowlist');

        expect(await trx('automations').where({ id: 'wf_old' }).first('name', 'version', 'active')).toEqual({ name: 'Old, renamed', version: 1, active: true });
        expect(await trx('automation_runs').where({ id: 'run_old' }).first('automation_id', 'automation_version', 'status', 'nodes')).toEqual({
          automation_id: 'wf_old',
          automation_version: 1,
          status: 'completed',
          nodes: [],
        });
        expect(outbox.origin_automation_id).toBe('wf_old');
        expect(key.mcp_workflow_allowlist).toEqual(['wf_old']);
        await trx('workflows').where({ id: 'wf_old' }).delete();
        expect(await trx('automation_runs').where({ id: 'run_old' })).toEqual([]);
        throw ROLLBACK;
      })
      .catch((error: unknown) => {
        if (error !== ROLLBACK) throw error;
      });
  });

  it('down gives back every old name, and up again the same schema', async () => {
    const after = await schemaOf(fresh.db);
    await fresh.db.transaction((trx) => rename.down(trx));
    const before = await schemaOf(fresh.db);
    expect(before.filter(({ kind }) => kind === 'relation v').map(({ name }) => name)).not.toContain('workflows');
    expect(offenders(before)).toEqual(
      expect.arrayContaining([
        'relation r workflows',
        'column workflow_runs.workflow_id',
        'function outbox_event_heard',
        'trigger workflows.workflows_invalidate_cache',
      ]),
    );
    expect(before).toContainEqual(expect.objectContaining({ kind: 'column', name: 'workflow_runs.workflow_id' }));
    expect(before).toContainEqual(expect.objectContaining({ kind: 'column', name: 'outbox_events.origin_workflow_id' }));
    expect(before.filter(({ kind, name }) => kind === 'function' && name === 'outbox_event_heard').map(({ text }) => text)).toContainEqual(
      expect.stringMatching(/FROM workflows w/),
    );
    // The lane keys kept their name; the trigger keys came after the rename, so its down leaves them.
    const renamed = (name: string) => /^automation|\.automation/.test(name) && !name.includes('lane_keys') && !name.includes('trigger_keys');
    expect(before.filter(({ kind, name }) => kind !== 'column' && renamed(name))).toEqual([]);
    await fresh.db.transaction((trx) => rename.up(trx));
    expect(await schemaOf(fresh.db)).toEqual(after);
  });
});
