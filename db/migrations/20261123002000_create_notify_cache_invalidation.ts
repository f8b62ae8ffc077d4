import type { Knex } from 'knex';

/**
 * The trigger function behind the API's read-through caches (api keys, members, operator settings): every
 * change that matters NOTIFYs `cache_invalidation` with `<table>:<key>` when its transaction commits, so every
 * API instance drops the entry whichever process or tool made the change.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE FUNCTION notify_cache_invalidation() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_TABLE_NAME = 'api_keys' THEN
        PERFORM pg_notify('cache_invalidation', 'api_keys:' || OLD.key_hash);
      ELSIF TG_TABLE_NAME = 'members' THEN
        PERFORM pg_notify('cache_invalidation', 'members:' || OLD.operator_id || ':' || OLD.id);
      ELSE
        PERFORM pg_notify('cache_invalidation', TG_TABLE_NAME || ':' || COALESCE(NEW.operator_id, OLD.operator_id));
      END IF;
      RETURN NULL;
    END $$`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP FUNCTION notify_cache_invalidation()');
}
