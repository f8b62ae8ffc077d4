import type { Knex } from 'knex';

/**
 * Run control's held-back triggers as skipped-trigger records (docs/workflows.md "Skipped triggers"): the key the
 * trigger was held back under, sealed like the message (a key is by default the player's externalId), and an index
 * that lets the per-automation cap count the last minute's records without reading older ones.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('workflow_trigger_skips', (table) => {
    table.text('run_key');
  });
  await db.raw('CREATE INDEX workflow_trigger_skips_minute_idx ON workflow_trigger_skips (operator_id, workflow_id, created_at)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX IF EXISTS workflow_trigger_skips_minute_idx');
  await db.schema.alterTable('workflow_trigger_skips', (table) => {
    table.dropColumn('run_key');
  });
}
