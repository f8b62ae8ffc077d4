import type { Knex } from 'knex';

/**
 * Events an automation heard and did not run for, with the reason (docs/workflows.md "Skipped triggers"): a trigger
 * filter or run-control key that failed or ran past its own budget, an event set aside after repeated dispatch faults.
 * Short-lived (the retention run deletes them after `TRIGGER_SKIPS_DAYS`); the message is sealed, as JSONata messages
 * can quote the event's values.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('workflow_trigger_skips', (table) => {
    table.bigIncrements('id').primary();
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('workflow_id').notNullable();
    table.integer('workflow_version').notNullable();
    table.text('node_id');
    table.text('event_id').notNullable();
    table.text('event').notNullable();
    table.text('reason').notNullable();
    table.text('code').notNullable();
    table.text('message').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.unique(['operator_id', 'workflow_id', 'event_id', 'reason']);
  });
  await db.raw('CREATE INDEX workflow_trigger_skips_list_idx ON workflow_trigger_skips (operator_id, workflow_id, id DESC)');
  await db.raw('CREATE INDEX workflow_trigger_skips_age_idx ON workflow_trigger_skips (created_at)');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('workflow_trigger_skips');
}
