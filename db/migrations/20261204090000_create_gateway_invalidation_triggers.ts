import type { Knex } from 'knex';

const TABLES = ['connections', 'connectors', 'circuit_breakers'] as const;

/**
 * Any change of an operator's connections, connectors or circuit breakers drops what the workers hold of that
 * operator for its gateway calls (`<table>:<operator_id>`, activities/gateway/caches.ts), whichever process or tool
 * made it: a deactivated connection, a deleted connector or an opened circuit is seen by every worker when the
 * notification arrives.
 */
export async function up(db: Knex): Promise<void> {
  for (const table of TABLES) {
    await db.raw(`CREATE TRIGGER ${table}_invalidate_cache AFTER INSERT OR UPDATE OR DELETE ON ${table}
                  FOR EACH ROW EXECUTE FUNCTION notify_cache_invalidation()`);
  }
}

export async function down(db: Knex): Promise<void> {
  for (const table of TABLES) await db.raw(`DROP TRIGGER ${table}_invalidate_cache ON ${table}`);
}
