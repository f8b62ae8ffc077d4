import type { Knex } from 'knex';

/** Lets the metrics scrape count running runs (`platform_automation_runs_running`) without reading every run. */
export async function up(db: Knex): Promise<void> {
  await db.raw("CREATE INDEX workflow_runs_running_idx ON workflow_runs (started_at) WHERE status = 'running'");
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX workflow_runs_running_idx');
}
