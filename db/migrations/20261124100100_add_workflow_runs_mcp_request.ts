import type { Knex } from 'knex';

/**
 * `mcp_request`: the session and JSON-RPC id of the `tools/call` that started a run (`<session> <id>`), so a
 * `notifications/cancelled` reaching any API instance finds the run to cancel. Indexed only while it runs: a
 * finished run cannot be cancelled.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('workflow_runs', (table) => {
    table.text('mcp_request');
  });
  await db.raw("CREATE INDEX workflow_runs_mcp_request_idx ON workflow_runs (operator_id, mcp_request) WHERE mcp_request IS NOT NULL AND status = 'running'");
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('workflow_runs', (table) => {
    table.dropColumn('mcp_request');
  });
}
