import type { Knex } from 'knex';

/**
 * The runs explorer (`GET /workflows-api/runs`, db/queries/runsExplorer.ts) reads an operator's runs across its
 * automations newest first, and filters on the branch a condition took.
 *
 * - `workflow_runs_operator_started_idx` walks the operator's runs in page order (`started_at DESC, id DESC`), which is
 *   also the keyset of its `cursor`; the older `(operator_id, workflow_id, started_at)` index serves one automation.
 * - `workflow_runs_branches_idx` indexes only the condition entries of `nodes` (those carrying `branch`, in the clear
 *   since core/runSeal.ts `nodeSummary`), so `branch=<node>:true` is a containment test on a small GIN index instead of
 *   a scan of every run's node list. The query repeats the expression exactly (`BRANCHES` in db/queries/runsExplorer.ts).
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('CREATE INDEX workflow_runs_operator_started_idx ON workflow_runs (operator_id, started_at DESC, id DESC)');
  await db.raw(
    `CREATE INDEX workflow_runs_branches_idx ON workflow_runs USING gin ((jsonb_path_query_array(nodes, '$[*] \\? (exists (@.branch))')) jsonb_path_ops)`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX workflow_runs_branches_idx');
  await db.raw('DROP INDEX workflow_runs_operator_started_idx');
}
