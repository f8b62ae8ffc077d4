import type { Knex } from 'knex';

/**
 * A rerun is a new run that links to the one it repeats (docs/workflows.md "Rerun and replay"): `rerun_of` names the
 * original, `rerun_from_node_id` the step it was rerun from, and `replay_id` the bulk replay job (`run_replays`) that
 * started it, if any. The replay job counts its reruns' outcomes by `replay_id`, hence the index.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('workflow_runs', (table) => {
    table.text('rerun_of');
    table.text('rerun_from_node_id');
    table.text('replay_id');
  });
  await db.raw('CREATE INDEX workflow_runs_rerun_of_idx ON workflow_runs (operator_id, rerun_of) WHERE rerun_of IS NOT NULL');
  await db.raw('CREATE INDEX workflow_runs_replay_idx ON workflow_runs (operator_id, replay_id, status) WHERE replay_id IS NOT NULL');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX workflow_runs_replay_idx');
  await db.raw('DROP INDEX workflow_runs_rerun_of_idx');
  await db.schema.alterTable('workflow_runs', (table) => {
    table.dropColumn('replay_id');
    table.dropColumn('rerun_from_node_id');
    table.dropColumn('rerun_of');
  });
}
