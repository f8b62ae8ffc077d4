import type { Knex } from 'knex';

/**
 * `subject_external_id`: the entity a run is about, as its trigger payload names it (core/runSeal.ts
 * `runSubjectOf`), so erasing that entity finds its runs although their payloads are sealed. Indexed per
 * operator for erasure; null for runs about no entity.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('workflow_runs', (table) => {
    table.text('subject_external_id');
  });
  await db.raw('CREATE INDEX workflow_runs_subject_idx ON workflow_runs (operator_id, subject_external_id) WHERE subject_external_id IS NOT NULL');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('workflow_runs', (table) => {
    table.dropColumn('subject_external_id');
  });
}
