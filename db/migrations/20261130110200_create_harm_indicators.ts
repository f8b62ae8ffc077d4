import type { Knex } from 'knex';

/**
 * Harm indicators the platform fired (docs/compliance.md "Harm indicators"): one row per threshold crossing, keyed by
 * the transaction event that crossed it (`source_event_id`), so ingesting or retrying the same event fires once. The
 * gate reads the latest row of a player to suppress marketing while the player is at risk.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('harm_indicators', (table) => {
    table.bigIncrements('seq').primary();
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('entity_id').notNullable();
    table.text('indicator').notNullable();
    table.text('source_event_id').notNullable();
    table.jsonb('details').notNullable();
    table.timestamp('fired_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.unique(['operator_id', 'indicator', 'source_event_id'], { indexName: 'harm_indicators_once_idx' });
    table.index(['operator_id', 'entity_id', 'fired_at'], 'harm_indicators_entity_idx');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('harm_indicators');
}
