import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('members', (table) => {
    table.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.uuid('user_id').notNullable().unique().references('id').inTable('users').onDelete('CASCADE');
    table.text('role').notNullable();
    table.text('status').notNullable().defaultTo('active');
    table.text('display_name').notNullable().defaultTo('');
    table.integer('session_version').notNullable().defaultTo(1);
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.index(['operator_id']);
    table.check("role IN ('owner', 'admin', 'member')", [], 'members_role_check');
    table.check("status IN ('active', 'suspended')", [], 'members_status_check');
  });
  await db.raw("CREATE UNIQUE INDEX members_one_owner_per_operator ON members (operator_id) WHERE role = 'owner'");
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('members');
}
