import type { Knex } from 'knex';

/**
 * `layout`: where each step sits in the dashboard's editor, `{ <node id>: { x, y } }`. Kept beside the definition, not
 * in it: moving a step changes no run, so it does not bump `version`.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('workflows', (table) => {
    table.jsonb('layout').notNullable().defaultTo('{}');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('workflows', (table) => {
    table.dropColumn('layout');
  });
}
