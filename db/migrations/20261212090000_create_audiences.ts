import type { Knex } from 'knex';

/**
 * Saved player audiences (issue 45, docs/analytics.md "Audiences"): a definition per operator, its members kept by the
 * audience pass (`db/queries/audiencePass.ts`), one size row per UTC day, and the pass's own cursor over
 * `entity_events` (the rollups' xmin-bounded `(ingest_xid, id)` order, kept apart so either pass can run alone).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('audiences', (table) => {
    table.text('id').primary();
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('name').notNullable();
    table.jsonb('definition').notNullable();
    table.integer('version').notNullable().defaultTo(1);
    table.integer('evaluated_version');
    table.date('evaluated_day');
    table.timestamp('evaluated_at', { useTz: true });
    table.integer('size').notNullable().defaultTo(0);
    table.text('created_by').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.index(['operator_id', 'created_at'], 'audiences_operator_idx');
  });
  await db.schema.createTable('audience_members', (table) => {
    table.text('audience_id').notNullable().references('id').inTable('audiences').onDelete('CASCADE');
    table.uuid('operator_id').notNullable();
    table.text('entity_id').notNullable();
    table.timestamp('entered_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.primary(['audience_id', 'entity_id']);
    table.index(['operator_id', 'entity_id'], 'audience_members_entity_idx');
  });
  await db.schema.createTable('audience_sizes', (table) => {
    table.text('audience_id').notNullable().references('id').inTable('audiences').onDelete('CASCADE');
    table.date('day').notNullable();
    table.integer('size').notNullable();
    table.integer('entered').notNullable().defaultTo(0);
    table.integer('exited').notNullable().defaultTo(0);
    table.primary(['audience_id', 'day']);
  });
  await db.schema.createTable('audience_pass_state', (table) => {
    table.smallint('id').primary();
    table.bigInteger('cursor_xid').notNullable().defaultTo(0);
    table.text('cursor_id').notNullable().defaultTo('');
    table.timestamp('changed_since', { useTz: true });
    table.check('id = 1', [], 'audience_pass_state_single');
  });
  await db('audience_pass_state').insert({ id: 1 });
  // The pass re-judges players whose entity (country, erasure) changed since its last time; without it, a scan per pass.
  await db.raw('CREATE INDEX entities_operator_updated_idx ON entities (operator_id, updated_at)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX entities_operator_updated_idx');
  for (const table of ['audience_pass_state', 'audience_sizes', 'audience_members', 'audiences']) await db.schema.dropTable(table);
}
