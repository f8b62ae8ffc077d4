import type { Knex } from 'knex';

/**
 * The automation whose run wrote an internal event, taken from the transaction-local setting
 * `app.origin_workflow` that the workflow data actions set (null for everything else). The dispatcher
 * never fires a workflow with an event its own run produced, so an automation that records the kind of
 * event it listens to cannot loop on itself. A column default, not a trigger: bulk ingestion pays nothing.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw("ALTER TABLE outbox_events ADD COLUMN origin_workflow_id text DEFAULT nullif(current_setting('app.origin_workflow', true), '')");
}

export async function down(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE outbox_events DROP COLUMN origin_workflow_id');
}
