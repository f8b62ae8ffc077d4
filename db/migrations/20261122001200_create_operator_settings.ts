import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('operator_settings', (table) => {
    table.uuid('operator_id').primary().references('id').inTable('operators').onDelete('CASCADE');
    table.text('template_id').references('id').inTable('templates');
    table.integer('data_retention_days');
    table.jsonb('retention_policy');
    table.specificType('reporting_currency', 'char(3)').notNullable().defaultTo('EUR');
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.check('data_retention_days IS NULL OR data_retention_days > 0', [], 'operator_settings_retention_positive');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('operator_settings');
}
