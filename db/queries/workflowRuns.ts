import type { Knex } from 'knex';
import type { NodeResult, RunError, RunSource, RunStatus, WorkflowRun } from '../../core/workflows/types';
import type { Db } from '../knex';

type Runner = Db | Knex.Transaction;

export interface RunRow {
  id: string;
  operator_id: string;
  workflow_id: string;
  workflow_version: number;
  source: RunSource;
  status: RunStatus;
  trigger_node_id: string | null;
  temporal_workflow_id: string;
  mcp_request: string | null;
  input: unknown;
  output: unknown;
  nodes: NodeResult[];
  error: RunError | null;
  usage_month: string;
  reserved_actions: number;
  reserved_ai_actions: number;
  started_at: Date;
  completed_at: Date | null;
  duration_ms: number | null;
}

/** The API shape of a run (DESIGN.md "Run"). */
export function toRunRecord(row: RunRow): WorkflowRun {
  return {
    id: row.id,
    workflowId: row.workflow_id,
    workflowVersion: row.workflow_version,
    source: row.source,
    status: row.status,
    temporalWorkflowId: row.temporal_workflow_id,
    input: row.input ?? null,
    output: row.output ?? null,
    nodes: row.nodes,
    ...(row.error ? { error: row.error } : {}),
    startedAt: row.started_at.toISOString(),
    completedAt: row.completed_at ? row.completed_at.toISOString() : null,
    durationMs: row.duration_ms,
  };
}

export interface NewRun {
  id: string;
  operatorId: string;
  workflowId: string;
  workflowVersion: number;
  source: RunSource;
  triggerNodeId: string | null;
  temporalWorkflowId: string;
  /** `<session> <JSON-RPC id>` of the MCP `tools/call` that started the run, so it can be cancelled. */
  mcpRequest?: string;
  input: unknown;
  usageMonth: string;
  reserved: { actions: number; aiActions: number };
}

/** Inserts a running run; a second insert for the same Temporal workflow id returns the first run and `created: false`. */
export async function insertRun(trx: Runner, run: NewRun): Promise<{ row: RunRow; created: boolean }> {
  const inserted = (await trx('workflow_runs')
    .insert({
      id: run.id,
      operator_id: run.operatorId,
      workflow_id: run.workflowId,
      workflow_version: run.workflowVersion,
      source: run.source,
      status: 'running',
      trigger_node_id: run.triggerNodeId,
      temporal_workflow_id: run.temporalWorkflowId,
      mcp_request: run.mcpRequest ?? null,
      input: JSON.stringify(run.input ?? null),
      usage_month: run.usageMonth,
      reserved_actions: run.reserved.actions,
      reserved_ai_actions: run.reserved.aiActions,
    })
    .onConflict('temporal_workflow_id')
    .ignore()
    .returning('*')) as RunRow[];
  if (inserted[0]) return { row: inserted[0], created: true };
  const existing = await trx<RunRow>('workflow_runs').where({ operator_id: run.operatorId, temporal_workflow_id: run.temporalWorkflowId }).first();
  if (!existing) throw new Error('run insert conflicted with a run of another operator');
  return { row: existing, created: false };
}

const DURATION_MS = 'greatest(0, round(extract(epoch FROM (clock_timestamp() - started_at)) * 1000))::int';

/**
 * Fails a running run before its first node (`MISSING_TRIGGER_FIELD`, `QUOTA_EXCEEDED`): it holds no
 * reservation and ran nothing. Returns undefined when the run was no longer running.
 */
export async function rejectRun(trx: Runner, operatorId: string, runId: string, error: RunError): Promise<RunRow | undefined> {
  const [row] = (await trx('workflow_runs')
    .where({ operator_id: operatorId, id: runId, status: 'running' })
    .update({
      status: 'failed',
      output: JSON.stringify(null),
      error: JSON.stringify(error),
      reserved_actions: 0,
      reserved_ai_actions: 0,
      completed_at: trx.fn.now(),
      duration_ms: trx.raw(DURATION_MS),
    })
    .returning('*')) as RunRow[];
  return row;
}

export async function findRun(db: Runner, operatorId: string, runId: string): Promise<RunRow | undefined> {
  return db<RunRow>('workflow_runs').where({ operator_id: operatorId, id: runId }).first();
}

/** The running run an MCP `tools/call` started (`mcpRequestKey`), to cancel it; nothing once it has ended. */
export async function findRunningMcpCall(db: Runner, operatorId: string, mcpRequest: string): Promise<Pick<RunRow, 'id' | 'temporal_workflow_id'> | undefined> {
  return db<RunRow>('workflow_runs').where({ operator_id: operatorId, mcp_request: mcpRequest, status: 'running' }).first('id', 'temporal_workflow_id');
}

export async function listRuns(db: Runner, operatorId: string, workflowId: string, page: { limit: number; offset: number }): Promise<{ rows: RunRow[]; count: number }> {
  const scoped = () => db<RunRow>('workflow_runs').where({ operator_id: operatorId, workflow_id: workflowId });
  const [rows, total] = await Promise.all([
    scoped().orderBy([{ column: 'started_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(page.limit).offset(page.offset).select('*'),
    scoped().count<{ count: string }[]>({ count: '*' }),
  ]);
  return { rows, count: Number(total[0]?.count ?? 0) };
}

/**
 * Closes a running run and gives back the reserved Actions it did not execute, in one statement, and
 * returns the closed run; a retried finish finds the run already closed, changes nothing and returns it as stored.
 */
export async function finishRun(
  db: Runner,
  operatorId: string,
  runId: string,
  result: { status: Exclude<RunStatus, 'running'>; output: unknown; nodes: NodeResult[]; error: RunError | null; executed: { actions: number; aiActions: number } },
): Promise<RunRow | undefined> {
  const closed = await db.raw<{ rows: RunRow[] }>(
    `WITH closed AS (
       UPDATE workflow_runs SET status = ?, output = ?::jsonb, nodes = ?::jsonb, error = ?::jsonb, completed_at = now(),
              duration_ms = ${DURATION_MS}
        WHERE operator_id = ? AND id = ? AND status = 'running'
       RETURNING *),
     given_back AS (
       UPDATE workflow_usage u
          SET actions = greatest(0, u.actions - greatest(0, c.reserved_actions - ?::int)),
              ai_actions = greatest(0, u.ai_actions - greatest(0, c.reserved_ai_actions - ?::int))
         FROM closed c
        WHERE u.operator_id = ? AND u.month = c.usage_month AND (c.reserved_actions > ?::int OR c.reserved_ai_actions > ?::int))
     SELECT * FROM closed`,
    [
      result.status,
      JSON.stringify(result.output ?? null),
      JSON.stringify(result.nodes),
      result.error ? JSON.stringify(result.error) : null,
      operatorId,
      runId,
      result.executed.actions,
      result.executed.aiActions,
      operatorId,
      result.executed.actions,
      result.executed.aiActions,
    ],
  );
  return closed.rows[0] ?? (await findRun(db, operatorId, runId));
}
