import type { Knex } from 'knex';

/** Runs may end `cancelled`: an MCP client cancelled the `tools/call` that started them (docs/mcp.md). */
export async function up(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE workflow_runs DROP CONSTRAINT workflow_runs_status');
  await db.raw("ALTER TABLE workflow_runs ADD CONSTRAINT workflow_runs_status CHECK (status IN ('running', 'completed', 'failed', 'cancelled'))");
}

export async function down(db: Knex): Promise<void> {
  await db.raw("UPDATE workflow_runs SET status = 'failed' WHERE status = 'cancelled'");
  await db.raw('ALTER TABLE workflow_runs DROP CONSTRAINT workflow_runs_status');
  await db.raw("ALTER TABLE workflow_runs ADD CONSTRAINT workflow_runs_status CHECK (status IN ('running', 'completed', 'failed'))");
}
