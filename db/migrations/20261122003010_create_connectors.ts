import type { Knex } from 'knex';

/**
 * Connector blueprints (spec 2.10): a supplier's OpenAPI document, owned by one operator. `blueprint`
 * is what the gateway reads per call (operations, security schemes, server URL), extracted once at
 * save time from the validated, dereferenced document; `openapi` keeps the document as given.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('connectors', (table) => {
    table.text('id').primary();
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('name').notNullable();
    table.text('provider').notNullable();
    table.jsonb('openapi');
    table.jsonb('blueprint');
    table.jsonb('schema_map').notNullable().defaultTo('{}');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.unique(['operator_id', 'id']);
    table.index(['operator_id', 'created_at']);
  });
  await db.raw("ALTER TABLE connectors ADD CONSTRAINT connectors_id_prefix CHECK (id LIKE 'cnr\\_%')");
  await db.raw('ALTER TABLE connectors ADD CONSTRAINT connectors_spec_has_blueprint CHECK ((openapi IS NULL) = (blueprint IS NULL))');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('connectors');
}
