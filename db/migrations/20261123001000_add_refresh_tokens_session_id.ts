import type { Knex } from 'knex';

/**
 * A session is the chain of refresh tokens one sign-in rotates through; its id travels in the access
 * token (`sid`), so `POST /auth/v1/logout?scope=local` can end exactly the caller's session.
 * Tokens issued before this column existed have none and are ended only by a global logout.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('refresh_tokens', (table) => {
    table.uuid('session_id');
    table.index(['member_id', 'session_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('refresh_tokens', (table) => {
    table.dropIndex(['member_id', 'session_id']);
    table.dropColumn('session_id');
  });
}
