import type { Knex } from 'knex';
import { IGAMING_TEMPLATE } from '../../core/templates';

/** Reseeds the iGaming template with the `compliance` and `consent` state keys the gate reads (spec 2.13). */
export async function up(db: Knex): Promise<void> {
  const { id, name, version, schema } = IGAMING_TEMPLATE;
  await db('templates').where({ id }).update({ name, version, schema: JSON.stringify(schema) });
}

export async function down(db: Knex): Promise<void> {
  const { id, schema } = IGAMING_TEMPLATE;
  const before = { ...schema, state_keys: schema.state_keys.filter((key) => key !== 'compliance' && key !== 'consent') };
  await db('templates').where({ id }).update({ schema: JSON.stringify(before) });
}
