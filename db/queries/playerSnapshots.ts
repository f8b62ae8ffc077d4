import type { Db } from '../knex';
import { PLAYER_VALUE_MAX_BYTES } from '../../core/automations/playerSnapshot';
import type { PlayerRow } from '../../core/playerSeal';

/**
 * The operator's live entities by external id or by entity id, each with its states in one statement (a run's player
 * snapshot is built from it: core/playerSeal.ts). A state of more than {@link PLAYER_VALUE_MAX_BYTES} as JSON stays in the database (only its key is read), so a player with megabytes of state costs a run nothing.
 */
export async function readPlayers(db: Db, operatorId: string, by: { externalIds: string[] } | { ids: string[] }): Promise<PlayerRow[]> {
  const [column, values] = 'ids' in by ? ['e.id', by.ids] : ['e.external_id', by.externalIds];
  if (values.length === 0) return [];
  const result = await db.raw<{ rows: PlayerRow[] }>(
    `SELECT e.id, e.external_id, e.entity_type, e.data,
            coalesce(jsonb_object_agg(s.state_key, s.value) FILTER (WHERE s.state_key IS NOT NULL AND octet_length(s.value::text) <= ?), '{}'::jsonb) AS states,
            coalesce(array_agg(s.state_key ORDER BY s.state_key) FILTER (WHERE octet_length(s.value::text) > ?), '{}') AS too_large
       FROM entities e
       LEFT JOIN entity_states s ON s.operator_id = e.operator_id AND s.entity_id = e.id
      WHERE e.operator_id = ? AND ${column} = ANY(?) AND e.deleted_at IS NULL
      GROUP BY e.id`,
    [PLAYER_VALUE_MAX_BYTES, PLAYER_VALUE_MAX_BYTES, operatorId, values],
  );
  return result.rows;
}
