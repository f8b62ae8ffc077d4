import type { RunStatus } from '../../core/automations/types';
import type { Db } from '../knex';

/** An `mcp_tasks` row with what it reads of its run: one indexed join, no Temporal call. */
export interface McpTaskRow {
  id: string;
  operator_id: string;
  api_key_id: string;
  run_id: string;
  temporal_workflow_id: string;
  tool_name: string;
  structured: boolean;
  status_message: string | null;
  progress_checked_at: Date | null;
  cancel_requested: boolean;
  ttl_ms: number;
  poll_interval_ms: number;
  created_at: Date;
  last_updated_at: Date;
  expires_at: Date;
  /** The run's status; null until the run has recorded itself (the moment after it was started). */
  run_status: RunStatus | null;
  run_completed_at: Date | null;
  /** What the running run waits for someone to answer, sealed (db/queries/automationRuns.ts `awaitingInputOf`). */
  awaiting_input: string | null;
}

export interface NewMcpTask {
  id: string;
  operatorId: string;
  apiKeyId: string;
  runId: string;
  temporalWorkflowId: string;
  toolName: string;
  structured: boolean;
  ttlMs: number;
  pollIntervalMs: number;
}

/** The key that owns a task: another key of the same operator, or another operator, finds nothing. */
export interface TaskOwner {
  operatorId: string;
  apiKeyId: string;
}

const withRun = (db: Db) =>
  db('mcp_tasks as t')
    .leftJoin('automation_runs as r', function joinRun() {
      this.on('r.operator_id', '=', 't.operator_id').andOn('r.id', '=', 't.run_id');
    })
    .select('t.*', 'r.status as run_status', 'r.completed_at as run_completed_at', 'r.awaiting_input as awaiting_input');

export async function insertMcpTask(db: Db, task: NewMcpTask): Promise<McpTaskRow> {
  const [row] = await db('mcp_tasks')
    .insert({
      id: task.id,
      operator_id: task.operatorId,
      api_key_id: task.apiKeyId,
      run_id: task.runId,
      temporal_workflow_id: task.temporalWorkflowId,
      tool_name: task.toolName,
      structured: task.structured,
      ttl_ms: task.ttlMs,
      poll_interval_ms: task.pollIntervalMs,
      // Milliseconds, as a Date holds them: a `tasks/list` cursor then names a row exactly.
      created_at: db.raw("date_trunc('milliseconds', now())"),
      expires_at: db.raw(`now() + make_interval(secs => ?)`, [task.ttlMs / 1000]),
    })
    .returning('*');
  return { ...(row as McpTaskRow), run_status: null, run_completed_at: null, awaiting_input: null };
}

/** A live (unexpired) task of this key, with its run's status. */
export async function findMcpTask(db: Db, owner: TaskOwner, taskId: string): Promise<McpTaskRow | undefined> {
  return withRun(db)
    .where({ 't.operator_id': owner.operatorId, 't.api_key_id': owner.apiKeyId, 't.id': taskId })
    .where('t.expires_at', '>', db.fn.now())
    .first();
}

/** The key's live tasks, newest first, from after `cursor` (the last id of the page before). */
export async function listMcpTasks(db: Db, owner: TaskOwner, options: { limit: number; after?: { createdAt: Date; id: string } }): Promise<McpTaskRow[]> {
  const { after } = options;
  return withRun(db)
    .where({ 't.operator_id': owner.operatorId, 't.api_key_id': owner.apiKeyId })
    .where('t.expires_at', '>', db.fn.now())
    .modify((query) => after && query.whereRaw('(t.created_at, t.id) < (?, ?)', [after.createdAt, after.id]))
    .orderBy([
      { column: 't.created_at', order: 'desc' },
      { column: 't.id', order: 'desc' },
    ])
    .limit(options.limit);
}

/** Stores the run's progress as the task's status message; `last_updated_at` moves only when the message changes. */
export async function recordMcpTaskProgress(db: Db, owner: TaskOwner, taskId: string, message: string | null): Promise<void> {
  await db('mcp_tasks')
    .where({ operator_id: owner.operatorId, api_key_id: owner.apiKeyId, id: taskId })
    .update({
      progress_checked_at: db.fn.now(),
      last_updated_at: db.raw('CASE WHEN status_message IS DISTINCT FROM ? THEN now() ELSE last_updated_at END', [message]),
      status_message: message,
    });
}

export async function markMcpTaskCancelRequested(db: Db, owner: TaskOwner, taskId: string): Promise<void> {
  await db('mcp_tasks')
    .where({ operator_id: owner.operatorId, api_key_id: owner.apiKeyId, id: taskId })
    .update({ cancel_requested: true, last_updated_at: db.fn.now() });
}

/** Forgets a task whose run could not be started. */
export async function deleteMcpTask(db: Db, owner: TaskOwner, taskId: string): Promise<void> {
  await db('mcp_tasks').where({ operator_id: owner.operatorId, api_key_id: owner.apiKeyId, id: taskId }).delete();
}

/** The retention run's: tasks past their TTL, in batches. */
export async function purgeExpiredMcpTasks(db: Db, limit = 5_000): Promise<number> {
  return db('mcp_tasks')
    .whereIn('id', db('mcp_tasks').select('id').where('expires_at', '<=', db.fn.now()).limit(limit))
    .delete();
}

/** The task behind a run an agent started as an MCP task: its id and what its status is derived from (core/mcpTasks.ts). */
export interface RunTaskRow {
  id: string;
  run_id: string;
  cancel_requested: boolean;
  /** Whether its run waits for someone to answer (an `action.approval`): the task is then `input_required`. */
  awaiting_input: boolean;
}

/**
 * The live (unexpired) tasks behind these runs of the operator, whatever key created them, in one read: the run record
 * of `/workflows-api` names its task while an agent can still read it. Only runs of source `mcp` can have one.
 */
export async function findMcpTasksOfRuns(db: Db, operatorId: string, runIds: readonly string[]): Promise<RunTaskRow[]> {
  if (runIds.length === 0) return [];
  return db('mcp_tasks as t')
    .leftJoin('automation_runs as r', function joinRun() {
      this.on('r.operator_id', '=', 't.operator_id').andOn('r.id', '=', 't.run_id');
    })
    .where({ 't.operator_id': operatorId })
    .whereIn('t.run_id', [...runIds])
    .where('t.expires_at', '>', db.fn.now())
    .select<RunTaskRow[]>('t.id', 't.run_id', 't.cancel_requested', db.raw('(r.awaiting_input IS NOT NULL) AS awaiting_input'));
}

/**
 * As `markMcpTaskCancelRequested`, by the run's id and for any key of the operator: a run cancelled from the dashboard
 * or the workflows API reads `cancelled` to the agent polling its task. Returns the task's id, undefined when the run
 * has no live task.
 */
export async function markMcpTaskOfRunCancelRequested(db: Db, operatorId: string, runId: string): Promise<string | undefined> {
  const [row] = (await db('mcp_tasks')
    .where({ operator_id: operatorId, run_id: runId })
    .where('expires_at', '>', db.fn.now())
    .update({ cancel_requested: true, last_updated_at: db.fn.now() })
    .returning('id')) as Array<{ id: string }>;
  return row?.id;
}
