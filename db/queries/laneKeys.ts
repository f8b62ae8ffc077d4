import type { Db } from '../knex';

/** One automation's run-control scope: every statement here is bounded by its operator. */
export interface LaneScope {
  operatorId: string;
  automationId: string;
}

/**
 * Admits a key's lane for an automation in one statement: `existing` when the lane is already counted, `admitted`
 * when it was below `cap` and the lane is now counted, `full` otherwise (nothing written). The count reads at most `cap`
 * rows of the automation's index. One dispatcher at a time works on an operator's events (its dispatch lock), so two
 * admissions of one automation never race past the cap.
 */
export async function admitLaneKey(db: Db, scope: LaneScope, laneId: string, cap: number): Promise<'existing' | 'admitted' | 'full'> {
  const { rows } = await db.raw<{ rows: Array<{ existing: boolean; admitted: boolean }> }>(
    `WITH existing AS (
       SELECT 1 FROM automation_lane_keys WHERE operator_id = ? AND automation_id = ? AND lane_id = ?
     ), live AS (
       SELECT count(*) AS n FROM (SELECT 1 FROM automation_lane_keys WHERE operator_id = ? AND automation_id = ? LIMIT ?) counted
     ), admitted AS (
       INSERT INTO automation_lane_keys (operator_id, automation_id, lane_id)
       SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM existing) AND (SELECT n FROM live) < ?
       ON CONFLICT DO NOTHING RETURNING 1
     )
     SELECT EXISTS (SELECT 1 FROM existing) AS existing, EXISTS (SELECT 1 FROM admitted) AS admitted`,
    [scope.operatorId, scope.automationId, laneId, scope.operatorId, scope.automationId, cap, scope.operatorId, scope.automationId, laneId, cap],
  );
  const row = rows[0]!;
  return row.existing ? 'existing' : row.admitted ? 'admitted' : 'full';
}

/** The automation's counted lanes, oldest first, at most `limit` from the `offset`-th. */
export async function laneKeysOf(db: Db, scope: LaneScope, limit: number, offset = 0): Promise<string[]> {
  const rows: Array<{ lane_id: string }> = await db('automation_lane_keys')
    .where({ operator_id: scope.operatorId, automation_id: scope.automationId })
    .orderBy([{ column: 'created_at' }, { column: 'lane_id' }])
    .limit(limit)
    .offset(offset)
    .select('lane_id');
  return rows.map((row) => row.lane_id);
}

/** Stops counting lanes found closed. */
export async function releaseLaneKeys(db: Db, scope: LaneScope, laneIds: string[]): Promise<number> {
  if (laneIds.length === 0) return 0;
  return db('automation_lane_keys').where({ operator_id: scope.operatorId, automation_id: scope.automationId }).whereIn('lane_id', laneIds).delete();
}
