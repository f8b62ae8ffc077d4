import type { Knex } from 'knex';

/**
 * Team invites (spec 2.9, 3.3). The raw `inv_` token is never stored, only its SHA-256 hex digest.
 * Expiry is not a status: a pending row past `expires_at` is reported as expired. At most one pending
 * invite per organisation and email (any case), enforced by a partial unique index.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('invites', (table) => {
    table.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('email').notNullable();
    table.text('role').notNullable();
    table.specificType('token_hash', 'char(64)').notNullable().unique();
    table.text('status').notNullable().defaultTo('pending');
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.uuid('invited_by_member_id').references('id').inTable('members').onDelete('SET NULL');
    table.timestamp('accepted_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.index(['operator_id', 'created_at']);
    table.check("role IN ('admin', 'member')", [], 'invites_role_check');
    table.check("status IN ('pending', 'accepted', 'revoked')", [], 'invites_status_check');
  });
  await db.raw("CREATE UNIQUE INDEX invites_one_pending_per_email ON invites (operator_id, lower(email)) WHERE status = 'pending'");
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('invites');
}
