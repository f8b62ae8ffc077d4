import type { Db } from '../knex';

/** Of these runs of the operator, those whose record has closed (a run not begun yet has no record: still in flight). */
export async function closedRunsOf(db: Db, operatorId: string, temporalWorkflowIds: string[]): Promise<string[]> {
  if (temporalWorkflowIds.length === 0) return [];
  const rows: Array<{ temporal_workflow_id: string }> = await db('automation_runs')
    .where({ operator_id: operatorId })
    .whereIn('temporal_workflow_id', temporalWorkflowIds)
    .whereNot({ status: 'running' })
    .select('temporal_workflow_id');
  return rows.map((row) => row.temporal_workflow_id);
}
