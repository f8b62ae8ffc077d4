import type { Knex } from 'knex';

/**
 * What `GET /safer-gambling` reads of the players now (db/queries/analyticsSaferGambling.ts), each a partial index
 * whose predicate is the query's own, so the figure reads the players with a compliance state and the excluded ones
 * rather than every player of the operator: the compliance states, and the live players whose `status` is `excluded`
 * (rare rows: an insert or update of any other entity writes neither index).
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`CREATE INDEX entity_states_compliance_idx ON entity_states (operator_id, entity_id) WHERE state_key = 'compliance'`);
  await db.raw(`CREATE INDEX entities_excluded_players_idx ON entities (operator_id, id)
                WHERE entity_type = 'player' AND deleted_at IS NULL AND data->>'status' = 'excluded'`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX entities_excluded_players_idx');
  await db.raw('DROP INDEX entity_states_compliance_idx');
}
