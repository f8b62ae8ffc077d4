import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('users', (table) => {
    table.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    table.text('email').notNullable();
    table.text('password_hash').notNullable();
    table.text('first_name');
    table.text('last_name');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.raw('CREATE UNIQUE INDEX users_email_lower_unique ON users (lower(email))');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('users');
}
