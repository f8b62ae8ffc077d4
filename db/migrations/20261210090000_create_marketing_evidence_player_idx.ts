import type { Knex } from 'knex';

/**
 * The evidence viewer filters by player and pages newest first (docs/compliance.md "Viewing the evidence"): this index
 * serves that page without reading the operator's other players' rows. The period index serves the unfiltered page.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('CREATE INDEX marketing_evidence_player_idx ON marketing_evidence (operator_id, player_id, recorded_at DESC, seq DESC)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX marketing_evidence_player_idx');
}
