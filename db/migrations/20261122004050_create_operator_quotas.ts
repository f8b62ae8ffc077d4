import type { Knex } from 'knex';

/** Per-operator overrides of the monthly quotas (`npm run cli -- quota …`); null keeps the configured default. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('operator_quotas', (table) => {
    table.uuid('operator_id').primary().references('id').inTable('operators').onDelete('CASCADE');
    table.integer('actions_per_month');
    table.integer('ai_actions_per_month');
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('operator_quotas');
}
