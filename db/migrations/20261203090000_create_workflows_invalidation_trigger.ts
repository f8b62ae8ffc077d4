import type { Knex } from 'knex';

/**
 * A change of what an automation is as an MCP tool — created, deleted, (de)activated, exposed, renamed, its
 * definition replaced — drops the operator's cached tools (`workflows:<operator_id>`, api/caches.ts). Only those
 * columns: writes of other columns (the editor's layout) change no tool and keep the cache.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`CREATE TRIGGER workflows_invalidate_cache
                AFTER INSERT OR DELETE OR UPDATE OF active, mcp_exposed, deleted_at, name, description, mcp_tool_name, nodes, edges, version, trigger_events
                ON workflows FOR EACH ROW EXECUTE FUNCTION notify_cache_invalidation()`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP TRIGGER workflows_invalidate_cache ON workflows');
}
