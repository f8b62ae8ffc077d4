import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('batch_jobs', (table) => {
    table.text('id').primary();
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('type').notNullable();
    table.text('status').notNullable().defaultTo('queued');
    table.integer('progress').notNullable().defaultTo(0);
    table.integer('total_items').notNullable();
    table.jsonb('input').notNullable();
    table.jsonb('output');
    table.text('error');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('started_at', { useTz: true });
    table.timestamp('completed_at', { useTz: true });
    table.index(['operator_id', 'created_at'], 'batch_jobs_operator_created_idx');
    table.check("status IN ('queued', 'running', 'completed', 'failed')", [], 'batch_jobs_status_check');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('batch_jobs');
}
