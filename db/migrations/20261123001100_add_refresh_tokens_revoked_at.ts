import type { Knex } from 'knex';

/** When a logout revoked the token: kept apart from `used_at` so a rotation and a sign-out stay distinguishable. */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('refresh_tokens', (table) => {
    table.timestamp('revoked_at', { useTz: true });
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('refresh_tokens', (table) => {
    table.dropColumn('revoked_at');
  });
}
