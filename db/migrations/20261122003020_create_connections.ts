import type { Knex } from 'knex';

/**
 * Connections: an operator's credentials for one connector. Credentials are one AES-256-GCM
 * ciphertext bound to `operatorId:connection:id`. The composite foreign key keeps a connection on its
 * own operator's connector; deleting the connector leaves the connection without one
 * (the gateway then answers `CONNECTOR_NOT_FOUND`).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('connections', (table) => {
    table.text('id').primary();
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('connector_id');
    table.text('name').notNullable();
    table.text('credentials_ciphertext').notNullable();
    table.text('base_url');
    table.boolean('active').notNullable().defaultTo(true);
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.index(['operator_id', 'created_at']);
    table.index(['operator_id', 'connector_id']);
  });
  await db.raw("ALTER TABLE connections ADD CONSTRAINT connections_id_prefix CHECK (id LIKE 'conn\\_%')");
  await db.raw(
    `ALTER TABLE connections ADD CONSTRAINT connections_connector_fk FOREIGN KEY (operator_id, connector_id)
       REFERENCES connectors (operator_id, id) ON DELETE SET NULL (connector_id)`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('connections');
}
