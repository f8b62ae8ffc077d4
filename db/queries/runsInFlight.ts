import type { Db } from '../knex';

/**
 * Of these runs of the operator, those no longer working: closed (a run not begun yet has no record: still in flight),
 * or `parked` — `ids` named among `parkable` and asleep in a wait the run recorded (`waiting_until` ahead: a delay
 * over a minute, a `wait_for_event`, an approval). A woken run still carries its wait's `waiting_until`, so only runs
 * counted at their start may be parked.
 */
export async function settledRunsOf(db: Db, operatorId: string, temporalWorkflowIds: string[], parkable: ReadonlySet<string>): Promise<string[]> {
  if (temporalWorkflowIds.length === 0) return [];
  const rows: Array<{ temporal_workflow_id: string; closed: boolean }> = await db('automation_runs')
    .where({ operator_id: operatorId })
    .whereIn('temporal_workflow_id', temporalWorkflowIds)
    .where((query) => query.whereNot({ status: 'running' }).orWhere('waiting_until', '>', db.fn.now()))
    .select('temporal_workflow_id', db.raw(`status <> 'running' AS closed`));
  return rows.filter((row) => row.closed || parkable.has(row.temporal_workflow_id)).map((row) => row.temporal_workflow_id);
}
