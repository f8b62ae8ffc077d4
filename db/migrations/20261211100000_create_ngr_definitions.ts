import type { Knex } from 'knex';

/**
 * An operator's NGR definitions (core/ngrDefinition.ts), one row per version: a change adds a version, none is ever
 * rewritten, so a figure computed with version N can be explained later. No row: no deductions beyond bonus cost.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('ngr_definitions', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.integer('version').notNullable();
    table.jsonb('definition').notNullable();
    table.text('created_by').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.primary(['operator_id', 'version']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('ngr_definitions');
}
