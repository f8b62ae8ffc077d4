import type { Knex } from 'knex';
import { IGAMING_TEMPLATE } from '../../core/templates';

/** Seeds the iGaming template (spec 2.2, 2.13); re-running updates it in place. */
export async function up(db: Knex): Promise<void> {
  const { id, name, version, schema } = IGAMING_TEMPLATE;
  await db('templates').insert({ id, name, version, schema: JSON.stringify(schema) }).onConflict('id').merge(['name', 'version', 'schema']);
}

export async function down(db: Knex): Promise<void> {
  await db('templates').where({ id: IGAMING_TEMPLATE.id }).delete();
}
