import type { Knex } from 'knex';

/**
 * `workflow_versions`: every version of an automation's definition, written once and never changed (docs/workflows.md
 * "Versions"). `definition` is what runs and what a caller sees — name, description, nodes (webhook nodes carry their
 * `webhookId` and `hasSecret`, never the secret, which stays sealed in `workflow_webhooks`), edges and every other
 * definition field — without the editor's `layout`, which never makes a version. `created_by` is `member:<id>` or
 * `key:<id>`, null for versions made before it was recorded. Rows stay when a workflow is soft-deleted: its runs keep
 * pointing at the version they ran.
 *
 * The backfill stores each workflow's current version from its row, every column but those that are not definition
 * (so a definition column added before this migration comes along).
 */
const NOT_DEFINITION = ['id', 'operator_id', 'version', 'trigger_events', 'layout', 'events_since', 'created_at', 'updated_at', 'deleted_at'];

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('workflow_versions', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('workflow_id').notNullable().references('id').inTable('workflows').onDelete('CASCADE');
    table.integer('version').notNullable();
    table.jsonb('definition').notNullable();
    table.text('created_by');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.primary(['operator_id', 'workflow_id', 'version']);
  });
  await db.raw('ALTER TABLE workflow_versions ADD CONSTRAINT workflow_versions_version_positive CHECK (version >= 1)');
  await backfillVersions(db);
}

/** Stores every workflow's current version that has no row yet (the table's first rows; idempotent). */
export async function backfillVersions(db: Knex): Promise<void> {
  await db.raw(
    `INSERT INTO workflow_versions (operator_id, workflow_id, version, definition, created_by, created_at)
     SELECT w.operator_id, w.id, w.version, to_jsonb(w) - ?::text[], NULL, w.updated_at FROM workflows w
     ON CONFLICT DO NOTHING`,
    [NOT_DEFINITION],
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('workflow_versions');
}
