import type { Knex } from 'knex';

/**
 * `subject_external_id` becomes `subject_external_ids`: a run's payload may name several entities (a transfer, a
 * referral), and each one's erasure must find the run (core/runSeal.ts `runSubjectCandidates`). An empty array
 * is a run about no entity; null is a row written before subjects were recorded, which erasure still matches by
 * its plaintext payload.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE workflow_runs ADD COLUMN subject_external_ids text[]');
  await db.raw('UPDATE workflow_runs SET subject_external_ids = ARRAY[subject_external_id] WHERE subject_external_id IS NOT NULL');
  await db.raw('DROP INDEX workflow_runs_subject_idx');
  await db.raw('ALTER TABLE workflow_runs DROP COLUMN subject_external_id');
  await db.raw('CREATE INDEX workflow_runs_subjects_idx ON workflow_runs USING gin (subject_external_ids)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE workflow_runs ADD COLUMN subject_external_id text');
  await db.raw('UPDATE workflow_runs SET subject_external_id = subject_external_ids[1] WHERE cardinality(subject_external_ids) > 0');
  await db.raw('DROP INDEX workflow_runs_subjects_idx');
  await db.raw('ALTER TABLE workflow_runs DROP COLUMN subject_external_ids');
  await db.raw('CREATE INDEX workflow_runs_subject_idx ON workflow_runs (operator_id, subject_external_id) WHERE subject_external_id IS NOT NULL');
}
