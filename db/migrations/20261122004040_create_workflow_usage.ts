import type { Knex } from 'knex';

/**
 * Actions and AI Actions per operator per calendar month (UTC, `YYYY-MM`). A run reserves its worst case
 * before its first node and settles to what it executed at the end, so concurrent runs never overshoot.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('workflow_usage', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('month').notNullable();
    table.integer('actions').notNullable().defaultTo(0);
    table.integer('ai_actions').notNullable().defaultTo(0);
    table.primary(['operator_id', 'month']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('workflow_usage');
}
