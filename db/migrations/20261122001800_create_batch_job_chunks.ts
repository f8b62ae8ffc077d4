import type { Knex } from 'knex';

/** One row per processed chunk, written in the chunk's own transaction: a retried chunk is never applied twice. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('batch_job_chunks', (table) => {
    table.text('job_id').notNullable().references('id').inTable('batch_jobs').onDelete('CASCADE');
    table.integer('chunk_index').notNullable();
    table.integer('succeeded').notNullable();
    table.integer('failed').notNullable();
    table.jsonb('errors').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.primary(['job_id', 'chunk_index']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('batch_job_chunks');
}
