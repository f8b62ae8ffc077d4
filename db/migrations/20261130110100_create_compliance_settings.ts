import type { Knex } from 'knex';

/**
 * An operator's responsible-gambling settings (core/compliance/settings.ts): the optional rules, quiet hours per
 * jurisdiction and the harm indicators' thresholds, one JSON document checked by the command that writes it. No
 * row means the defaults.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('compliance_settings', (table) => {
    table.uuid('operator_id').primary().references('id').inTable('operators').onDelete('CASCADE');
    table.jsonb('settings').notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('compliance_settings');
}
