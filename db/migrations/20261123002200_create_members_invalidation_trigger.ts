import type { Knex } from 'knex';

/** What a cached session principal holds: role, status, session version (suspension bumps it) and removal. */
export async function up(db: Knex): Promise<void> {
  await db.raw(`CREATE TRIGGER members_invalidate_cache AFTER UPDATE OF role, status, session_version, user_id OR DELETE ON members
                FOR EACH ROW EXECUTE FUNCTION notify_cache_invalidation()`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP TRIGGER members_invalidate_cache ON members');
}
