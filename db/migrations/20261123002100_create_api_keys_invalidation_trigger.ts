import type { Knex } from 'knex';

/** What a cached API-key principal holds: revocation, deletion and MCP settings (not labels, not `last_used_at`). */
export async function up(db: Knex): Promise<void> {
  await db.raw(`CREATE TRIGGER api_keys_invalidate_cache AFTER UPDATE OF revoked, mcp_enabled, mcp_workflow_allowlist OR DELETE ON api_keys
                FOR EACH ROW EXECUTE FUNCTION notify_cache_invalidation()`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP TRIGGER api_keys_invalidate_cache ON api_keys');
}
