import type { Knex } from 'knex';

/** When the aggregate views were last refreshed (one row per view set; the views are global, refreshed for every operator at once). */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('analytics_refreshes', (table) => {
    table.text('view_set').primary();
    table.timestamp('refreshed_at', { useTz: true }).notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('analytics_refreshes');
}
