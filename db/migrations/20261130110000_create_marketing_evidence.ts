import type { Knex } from 'knex';

/**
 * Evidence of the responsible-gambling gate (docs/compliance.md "Responsible-gambling gate"): one row per marketing
 * step the gate decided, suppressed (`rule` names the rule) or performed (`rule` = 'allowed'), with the SHA-256 of the
 * compliance state it read. Append-only: an update is refused, and so is a delete while the operator exists (an
 * operator's deletion cascades). One row per run and node, so a retried check records once.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('marketing_evidence', (table) => {
    table.bigIncrements('seq').primary();
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.timestamp('recorded_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.text('workflow_id').notNullable();
    table.integer('workflow_version').notNullable();
    table.text('run_id').notNullable();
    table.text('node_id').notNullable();
    table.text('action_type').notNullable();
    table.text('purpose').notNullable();
    table.text('rule').notNullable();
    table.text('player_id');
    table.specificType('state_hash', 'char(64)').notNullable();
    table.unique(['operator_id', 'run_id', 'node_id'], { indexName: 'marketing_evidence_once_idx' });
    table.index(['operator_id', 'recorded_at'], 'marketing_evidence_period_idx');
  });
  await db.raw(`
    CREATE FUNCTION marketing_evidence_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM operators WHERE id = OLD.operator_id) THEN RETURN OLD; END IF;
      RAISE EXCEPTION 'marketing_evidence is append-only';
    END $$`);
  await db.raw(`CREATE TRIGGER marketing_evidence_append_only BEFORE UPDATE OR DELETE ON marketing_evidence
                FOR EACH ROW EXECUTE FUNCTION marketing_evidence_append_only()`);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('marketing_evidence');
  await db.raw('DROP FUNCTION marketing_evidence_append_only()');
}
