import type { Knex } from 'knex';

/**
 * Operator automations (DESIGN.md "Workflows"). `trigger_events` lists the events of the definition's
 * `trigger.event` nodes so the dispatcher finds the workflows an outbox event can fire with one indexed
 * lookup, and `events_since` (creation or last activation) keeps older events from firing it; webhook secrets live sealed in `workflow_webhooks`, never in `nodes`. Deleting is soft
 * (`deleted_at`): runs keep pointing at the workflow they ran.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('workflows', (table) => {
    table.text('id').primary();
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('name').notNullable();
    table.text('description').notNullable().defaultTo('');
    table.boolean('active').notNullable().defaultTo(true);
    table.boolean('mcp_exposed').notNullable().defaultTo(false);
    table.text('mcp_tool_name').notNullable();
    table.integer('version').notNullable().defaultTo(1);
    table.jsonb('nodes').notNullable();
    table.jsonb('edges').notNullable();
    table.specificType('trigger_events', 'text[]').notNullable().defaultTo('{}');
    table.timestamp('events_since', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('deleted_at', { useTz: true });
    table.index(['operator_id', 'created_at']);
  });
  await db.raw("ALTER TABLE workflows ADD CONSTRAINT workflows_id_prefix CHECK (id LIKE 'wf\\_%')");
  await db.raw('CREATE UNIQUE INDEX workflows_tool_name_idx ON workflows (operator_id, mcp_tool_name) WHERE deleted_at IS NULL');
  await db.raw(
    "CREATE INDEX workflows_event_triggers_idx ON workflows USING gin (trigger_events) WHERE active AND deleted_at IS NULL AND trigger_events <> '{}'",
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('workflows');
}
