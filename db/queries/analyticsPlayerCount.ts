import type { Db } from '../knex';

/**
 * The operator's live players (`total_players`, binding `operatorId`): the folded count plus the changes the triggers
 * on `entities` appended since the last fold (migration 20261214090000). Exact at any moment — every change commits
 * with the write that made it — and read from one row and the few changes since the last pass, whatever the number of
 * players. Shared by both paths: it does not depend on the rollups' watermark.
 */
export const TOTAL_PLAYERS = `(coalesce((SELECT players FROM analytics_player_counts WHERE operator_id = :operatorId), 0)
  + coalesce((SELECT sum(delta) FROM analytics_player_count_changes WHERE operator_id = :operatorId), 0))`;

/**
 * Folds every committed change into the counts, in one statement: a change is either still a row or already in its
 * count, never both, for any reader. Changes of transactions still open stay for a later fold; two folds at once
 * each take only the rows they deleted. Changes of a deleted operator are dropped. Run by the rollup pass.
 */
export async function foldPlayerCounts(db: Db): Promise<void> {
  await db.raw(
    `WITH folded AS (DELETE FROM analytics_player_count_changes RETURNING operator_id, delta)
     INSERT INTO analytics_player_counts AS t (operator_id, players)
     SELECT f.operator_id, sum(f.delta) FROM folded f JOIN operators o ON o.id = f.operator_id GROUP BY f.operator_id
     ON CONFLICT (operator_id) DO UPDATE SET players = t.players + excluded.players`,
  );
}
