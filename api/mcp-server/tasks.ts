import { APPROVAL_FORM_SCHEMA } from '../../core/automations/approval';
import { errorResponse, isPlainObject, JSONRPC_ERROR, resultResponse, type JsonRpcId } from '../../core/mcpJsonRpc';
import { completeResult } from '../../core/mcpRevision';
import {
  decodeTaskCursor,
  encodeTaskCursor,
  grantedTtlMs,
  isTerminal,
  RELATED_TASK_META_KEY,
  TASK_LIST_PAGE,
  TASK_POLL_INTERVAL_MS,
  taskStatusOf,
  type TaskStatus,
} from '../../core/mcpTasks';
import type { McpTool } from '../../core/mcpTool';
import { errorToolResult, toolResultOf, type ToolCallResult } from '../../core/mcpToolCall';
import { awaitingInputOf, findRunRecord } from '../../db/queries/automationRuns';
import { cancelRunTask, createRunTask, noteTaskProgress } from '../../commands/mcpTasks';
import { findMcpTask, listMcpTasks, type McpTaskRow, type TaskOwner } from '../../db/queries/mcpTasks';
import {
  answerRunApproval,
  automationRunProgress,
  automationRunWorkflowId,
  awaitAutomationRun,
  cancelAutomationRun,
  startAutomationRun,
} from '../../temporal/automationRuns';
import { AppError } from '../errors';
import type { DispatchContext, McpAnswer } from './dispatchContext';
import { approvalAnswerOf, askForTaskInput } from './taskInput';
import { sessionElicits } from '../../core/mcpSession';

/** Progress older than this is refreshed from the run in the background; a read never waits for Temporal. */
const PROGRESS_REFRESH_MS = 3_000;
const refreshing = new Set<string>();

const ownerOf = (context: DispatchContext): TaskOwner => ({ operatorId: context.principal.operatorId, apiKeyId: context.principal.keyId });
const invalidParams = (id: JsonRpcId, message: string): McpAnswer => ({ response: errorResponse(id, JSONRPC_ERROR.INVALID_PARAMS, message) });

interface TaskView {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
}

function viewOf(row: McpTaskRow): TaskView {
  const status = taskStatusOf(row.run_status, row.cancel_requested, row.awaiting_input !== null);
  const updated = row.run_completed_at && row.run_completed_at > row.last_updated_at ? row.run_completed_at : row.last_updated_at;
  const message = {
    working: row.status_message,
    input_required: 'The run waits for an approval',
    cancelled: 'The run was cancelled',
    completed: 'The run has ended',
    failed: 'The run could not be started',
  }[status];
  return {
    taskId: row.id,
    status,
    ...(message ? { statusMessage: message } : {}),
    createdAt: row.created_at.toISOString(),
    lastUpdatedAt: updated.toISOString(),
  };
}

/** A task as the revision shows it: 2025-11-25 `ttl` / `pollInterval`, 2026-07-28 `ttlMs` / `pollIntervalMs`. */
function taskOf(context: DispatchContext, row: McpTaskRow): Record<string, unknown> {
  const view = viewOf(row);
  return context.revision.modern
    ? { ...view, ttlMs: row.ttl_ms, pollIntervalMs: row.poll_interval_ms }
    : { ...view, ttl: row.ttl_ms, pollInterval: row.poll_interval_ms };
}

/** Reads the run's progress into the task's status message, once at a time per task in this process. */
function refreshProgress(context: DispatchContext, row: McpTaskRow): void {
  const stale = !row.progress_checked_at || Date.now() - row.progress_checked_at.getTime() > PROGRESS_REFRESH_MS;
  if (!stale || refreshing.has(row.id) || viewOf(row).status !== 'working') return;
  refreshing.add(row.id);
  void automationRunProgress(context.deps.temporal, row.temporal_workflow_id)
    .then((progress) => {
      const message = progress ? `${progress.progress}/${progress.total} steps${progress.message ? `: ${progress.message}` : ''}` : null;
      return noteTaskProgress(context.deps, ownerOf(context), row.id, message);
    })
    .catch(context.log)
    .finally(() => refreshing.delete(row.id));
}

/**
 * A `tools/call` run as a task: the task is stored before its run starts (so a crash leaves no run without a handle),
 * then the run starts and the call answers at once — 2025-11-25 `{ task }`, 2026-07-28 `resultType: "task"`.
 */
export async function createToolTask(context: DispatchContext, id: JsonRpcId, tool: McpTool, args: unknown, requestedTtl: unknown): Promise<McpAnswer> {
  const { deps, principal } = context;
  const row = await createRunTask(deps, {
    owner: ownerOf(context),
    workflowIdOf: (runId) => automationRunWorkflowId('mcp', runId),
    toolName: tool.name,
    structured: tool.outputSchema !== null,
    ttlMs: grantedTtlMs(requestedTtl),
    pollIntervalMs: TASK_POLL_INTERVAL_MS,
    start: (runId) =>
      // A tool that may hold its run (`mayHoldRun`, summed in `waitsMs`) starts on the waiting queue (temporal/taskQueues.ts).
      startAutomationRun(
        deps.temporal,
        { operatorId: principal.operatorId, automationId: tool.automationId, source: 'mcp', input: args },
        runId,
        tool.waitsMs > 0,
      ),
  });
  const task = taskOf(context, { ...row, status_message: 'started' });
  return { response: resultResponse(id, context.revision.modern ? { resultType: 'task', ...task } : { task }) };
}

async function requireTask(context: DispatchContext, params: Record<string, unknown>): Promise<McpTaskRow | string> {
  if (typeof params.taskId !== 'string' || params.taskId === '') return 'Invalid params: taskId must be a non-empty string';
  const row = await findMcpTask(context.deps.db, ownerOf(context), params.taskId);
  return row ?? `Task not found: ${params.taskId.slice(0, 100)}`;
}

/** The call's result once its run has ended; a run that never recorded itself had lost its automation. */
async function resultOf(context: DispatchContext, row: McpTaskRow): Promise<ToolCallResult> {
  const run = await findRunRecord(context.deps.db, context.deps.keyring, row.operator_id, row.run_id);
  if (!run) return errorToolResult('WORKFLOW_NOT_FOUND', 'The workflow behind this tool no longer exists', null, 0);
  return toolResultOf(run, run.durationMs ?? 0, row.structured);
}

/**
 * `tasks/get`: one read of the task and its run. A 2026-07-28 task that has ended carries its result — a result of the
 * revision, typed `resultType: "complete"` like the direct call's —, one waiting for input its `inputRequests`.
 */
export async function getTask(context: DispatchContext, id: JsonRpcId, params: Record<string, unknown>): Promise<McpAnswer> {
  const row = await requireTask(context, params);
  if (typeof row === 'string') return invalidParams(id, row);
  refreshProgress(context, row);
  const task = taskOf(context, row);
  if (!context.revision.modern) return { response: resultResponse(id, task) };
  const ended = task.status === 'completed' ? { result: completeResult(await resultOf(context, row)) } : {};
  const asks = task.status === 'input_required' ? { inputRequests: await inputRequestsOf(context, row) } : {};
  return { response: resultResponse(id, { ...task, ...ended, ...asks }) };
}

/**
 * 2026-07-28's `inputRequests` of a task whose run waits in an approval: one form, keyed by the node's id. The
 * revision requires the field of every `input_required` task, so a run no longer waiting by the time it is read has
 * none to ask.
 */
async function inputRequestsOf(context: DispatchContext, row: McpTaskRow): Promise<Record<string, unknown>> {
  const awaiting = await awaitingInputOf(context.deps.keyring, { operator_id: row.operator_id, id: row.run_id, awaiting_input: row.awaiting_input });
  if (!awaiting) return {};
  const form = { method: 'elicitation/create', params: { mode: 'form', message: awaiting.message, requestedSchema: APPROVAL_FORM_SCHEMA } };
  return { [awaiting.nodeId]: form };
}

/**
 * `tasks/update` (2026-07-28): the agent's answers to the task's `inputRequests`. An accepted form with `approved:
 * true` approves, anything else (declined, cancelled, `approved: false`) refuses; answers to nothing the run waits for
 * are ignored, as the revision allows partial and repeated answers.
 */
export async function updateTask(context: DispatchContext, id: JsonRpcId, params: Record<string, unknown>): Promise<McpAnswer> {
  const row = await requireTask(context, params);
  if (typeof row === 'string') return invalidParams(id, row);
  if (!isPlainObject(params.inputResponses)) return invalidParams(id, 'Invalid params: inputResponses must be an object');
  const awaiting = await awaitingInputOf(context.deps.keyring, { operator_id: row.operator_id, id: row.run_id, awaiting_input: row.awaiting_input });
  const response = awaiting ? params.inputResponses[awaiting.nodeId] : undefined;
  if (awaiting && isPlainObject(response)) {
    await answerRunApproval(context.deps.temporal, row.temporal_workflow_id, approvalAnswerOf(awaiting.nodeId, response, context.principal.keyId));
  }
  return { response: resultResponse(id, {}) };
}

/**
 * `tasks/result` (2025-11-25): the call's result, waiting for the run to end if it has not — on Temporal's long poll
 * of the workflow's result, given up when the client goes away. A client accepting `text/event-stream` waits on a
 * stream (headers at once, a ping every heartbeat, so no client or proxy timeout ends a long wait), and one that
 * declared form elicitation is asked there for each approval the run waits in (taskInput.ts). A wait holds one of the
 * operator's stream slots for as long as it lasts, like the GET streams and `subscriptions/listen` (429
 * `MCP_SESSION_LIMIT_EXCEEDED` beyond `MCP_MAX_STREAMS_PER_OPERATOR`, before any stream is opened); a task already
 * ended answers at once and takes none.
 */
export async function taskResult(context: DispatchContext, id: JsonRpcId, params: Record<string, unknown>): Promise<McpAnswer> {
  let row = await requireTask(context, params);
  if (typeof row === 'string') return invalidParams(id, row);
  if (!isTerminal(viewOf(row).status) || row.run_status === 'running' || row.run_status === null) {
    const release = await context.hub.open(context.principal.operatorId, null, { write: () => undefined });
    if (!release) {
      const limit = context.deps.config.MCP_MAX_STREAMS_PER_OPERATOR;
      throw new AppError(429, 'MCP_SESSION_LIMIT_EXCEEDED', `At most ${limit} concurrent event streams per operator`, { headers: { 'Retry-After': '5' } });
    }
    try {
      row = await waitForTask(context, row);
    } finally {
      release();
    }
  }
  const result = await resultOf(context, row);
  return { response: resultResponse(id, { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId: row.id } } }) };
}

/** Waits for a task's run to end (or the client to go away), asking for its input on the stream meanwhile; the row as it is then. */
async function waitForTask(context: DispatchContext, row: McpTaskRow): Promise<McpTaskRow> {
  // The response closing before it is sent is the client going away (the request's own 'close' fires once its body is read).
  const gone = new AbortController();
  const onClose = () => gone.abort();
  context.ctx.res.once('close', onClose);
  const stream = context.openStream?.();
  const ended = new AbortController();
  const asking =
    stream && sessionElicits(context.sessionId) ? askForTaskInput(context.deps, ownerOf(context), row.id, stream, ended.signal, context.log) : undefined;
  try {
    await awaitAutomationRun(context.deps.temporal, row.temporal_workflow_id, gone.signal);
  } catch (error) {
    if (!gone.signal.aborted) throw error;
  } finally {
    context.ctx.res.off('close', onClose);
    ended.abort();
    await asking;
  }
  return (await findMcpTask(context.deps.db, ownerOf(context), row.id)) ?? row;
}

/** `tasks/cancel`: cancels the run's Temporal workflow; an ended task is `-32602` (2025-11-25) or acknowledged (2026-07-28). */
export async function cancelTask(context: DispatchContext, id: JsonRpcId, params: Record<string, unknown>): Promise<McpAnswer> {
  const row = await requireTask(context, params);
  if (typeof row === 'string') return invalidParams(id, row);
  const status = viewOf(row).status;
  if (isTerminal(status)) {
    if (context.revision.modern) return { response: resultResponse(id, {}) };
    return invalidParams(id, `Cannot cancel task: already in terminal status ${status}`);
  }
  await cancelRunTask(context.deps, ownerOf(context), row.id, () => cancelAutomationRun(context.deps.temporal, row.temporal_workflow_id));
  if (context.revision.modern) return { response: resultResponse(id, {}) };
  return { response: resultResponse(id, taskOf(context, { ...row, cancel_requested: true, last_updated_at: new Date() })) };
}

/** `tasks/list` (2025-11-25): the key's live tasks, newest first, a page at a time. */
export async function listTasks(context: DispatchContext, id: JsonRpcId, params: Record<string, unknown>): Promise<McpAnswer> {
  const after = decodeTaskCursor(params.cursor);
  if (after === 'invalid') return invalidParams(id, 'Invalid params: cursor is not one this server gave');
  const rows = await listMcpTasks(context.deps.db, ownerOf(context), { limit: TASK_LIST_PAGE + 1, ...(after ? { after } : {}) });
  const page = rows.slice(0, TASK_LIST_PAGE);
  const last = page.at(-1);
  const nextCursor = rows.length > TASK_LIST_PAGE && last ? encodeTaskCursor(last.created_at, last.id) : undefined;
  return { response: resultResponse(id, { tasks: page.map((row) => taskOf(context, row)), ...(nextCursor ? { nextCursor } : {}) }) };
}
