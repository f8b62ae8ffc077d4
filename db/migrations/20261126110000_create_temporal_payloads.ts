import type { Knex } from 'knex';

/**
 * Payloads too large to travel through Temporal (`temporal/claimCheckCodec.ts`): the history carries a reference, the
 * sealed payload rests here. `owner` is the workflow whose history holds the reference; `expires_at` is set at write
 * for short-lived owners (gateway lanes) and by the retention run once a run's owner has closed. Platform storage of
 * Temporal's, read only through the codec with ids from history: no operator column (docs/security.md).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('temporal_payloads', (table) => {
    table.uuid('id').primary();
    table.text('owner').notNullable();
    table.binary('sealed').notNullable();
    table.integer('bytes').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('expires_at', { useTz: true });
    table.index(['owner'], 'temporal_payloads_owner_idx');
    table.index(['created_at'], 'temporal_payloads_created_idx');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('temporal_payloads');
}
