import type { Knex } from 'knex';

/** Fires `notify_mcp_tools_changed` on every change of a workflow's tool-facing columns. */
export async function up(db: Knex): Promise<void> {
  await db.raw(`CREATE TRIGGER workflows_mcp_tools_changed
                AFTER INSERT OR DELETE OR UPDATE OF name, description, active, mcp_exposed, mcp_tool_name, nodes, edges, deleted_at ON workflows
                FOR EACH ROW EXECUTE FUNCTION notify_mcp_tools_changed()`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP TRIGGER workflows_mcp_tools_changed ON workflows');
}
