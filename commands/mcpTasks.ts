/**
 * An MCP `tools/call` run as a task (docs/mcp.md "Tasks"): the writes of the task's life — created with its run,
 * its progress noted, its cancellation asked for. Starting and cancelling the run's Temporal workflow is handed in by
 * the caller (temporal/automationRuns.ts), since commands sit below temporal/.
 */
import { prefixedId } from '../core/ids';
import { deleteMcpTask, insertMcpTask, markMcpTaskCancelRequested, recordMcpTaskProgress, type McpTaskRow, type TaskOwner } from '../db/queries/mcpTasks';
import type { CommandDeps } from './deps';

export interface RunTaskInput {
  owner: TaskOwner;
  /** The run's Temporal workflow id for a run id (`automationRunWorkflowId('mcp', runId)`). */
  workflowIdOf: (runId: string) => string;
  toolName: string;
  structured: boolean;
  ttlMs: number;
  pollIntervalMs: number;
  /** Starts the run under the given run id. */
  start: (runId: string) => Promise<unknown>;
}

/**
 * Stores the task before its run starts, so a crash leaves no run without a handle; a start that fails removes the
 * task again and its error is rethrown as it is.
 */
export async function createRunTask(deps: Pick<CommandDeps, 'db'>, input: RunTaskInput): Promise<McpTaskRow> {
  const { owner } = input;
  const runId = prefixedId('run');
  const row = await insertMcpTask(deps.db, {
    id: prefixedId('task'),
    operatorId: owner.operatorId,
    apiKeyId: owner.apiKeyId,
    runId,
    temporalWorkflowId: input.workflowIdOf(runId),
    toolName: input.toolName,
    structured: input.structured,
    ttlMs: input.ttlMs,
    pollIntervalMs: input.pollIntervalMs,
  });
  try {
    await input.start(runId);
  } catch (error) {
    await deleteMcpTask(deps.db, owner, row.id);
    throw error;
  }
  return row;
}

/** Notes the run's progress as the task's status message (null: none known). */
export async function noteTaskProgress(deps: Pick<CommandDeps, 'db'>, owner: TaskOwner, taskId: string, message: string | null): Promise<void> {
  await recordMcpTaskProgress(deps.db, owner, taskId, message);
}

/** Marks the task's cancellation as asked for, then cancels its run (`cancel`). */
export async function cancelRunTask(deps: Pick<CommandDeps, 'db'>, owner: TaskOwner, taskId: string, cancel: () => Promise<unknown>): Promise<void> {
  await markMcpTaskCancelRequested(deps.db, owner, taskId);
  await cancel();
}
