import type { Knex } from 'knex';

/** Any change of an operator's settings (template, retention, currency) drops its cached copy. */
export async function up(db: Knex): Promise<void> {
  await db.raw(`CREATE TRIGGER operator_settings_invalidate_cache AFTER INSERT OR UPDATE OR DELETE ON operator_settings
                FOR EACH ROW EXECUTE FUNCTION notify_cache_invalidation()`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP TRIGGER operator_settings_invalidate_cache ON operator_settings');
}
