import type { WorkflowHandle } from '@temporalio/client';
import type { AppDeps } from '../api/deps';
import { AppError } from '../api/errors';
import type { AutomationRunInput } from '../activities/automation/types';
import { prefixedId } from '../core/ids';
import type { RunSource, WorkflowRun } from '../core/workflows/types';
import { findRun, toRunRecord } from '../db/queries/workflowRuns';
import { findWorkflow } from '../db/queries/workflows';
import type { AutomationProgress, AutomationRunResult, automationRunWorkflow } from '../workflows/automationRun';

export interface StartRunInput {
  operatorId: string;
  /** The automation's id (`wf_…`). */
  workflowId: string;
  source: RunSource;
  /** The trigger payload: the test body, the MCP tool arguments, the webhook body or the internal event. */
  input: unknown;
  /** The trigger node that fired; defaults to the first trigger node matching the source. */
  triggerNodeId?: string;
}

export type RunProgress = AutomationProgress;

const PROGRESS_POLL_MS = 150;

/**
 * Starts an automation run in Temporal without waiting (webhooks) and returns its pre-assigned run id.
 * The run itself checks the workflow, the trigger payload and the quota.
 *
 * @example const { runId } = await startAutomationRun(deps, { operatorId, workflowId, source: 'webhook', input: body, triggerNodeId })
 */
export async function startAutomationRun(deps: AppDeps, input: StartRunInput): Promise<{ runId: string; handle: WorkflowHandle<typeof automationRunWorkflow> }> {
  const runId = prefixedId('run');
  const args: AutomationRunInput = { ...input, runId };
  const handle = await deps.temporal.client.workflow.start<typeof automationRunWorkflow>('automationRunWorkflow', {
    taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
    workflowId: `automation-${input.source}-${runId}`,
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    args: [args],
  });
  return { runId, handle };
}

function pollProgress(handle: WorkflowHandle<typeof automationRunWorkflow>, onProgress: (progress: RunProgress) => void): () => void {
  let last = '';
  let stopped = false;
  const tick = async () => {
    while (!stopped) {
      try {
        const progress = await handle.query<AutomationProgress>('automationProgress');
        const key = `${progress.progress}/${progress.total}`;
        if (!stopped && key !== last) {
          last = key;
          onProgress(progress);
        }
      } catch {
        // Not started yet or already closed: the next tick or the result tells.
      }
      await new Promise((resolve) => setTimeout(resolve, PROGRESS_POLL_MS));
    }
  };
  void tick();
  return () => {
    stopped = true;
  };
}

/**
 * Runs an automation now and waits for it (manual test runs, MCP `tools/call`): the run is recorded
 * with its source, quota-checked and trigger-validated inside the Temporal workflow. Resolves with the
 * stored run — `status: "failed"` with `error.code` (`MISSING_TRIGGER_FIELD`, `QUOTA_EXCEEDED`, a node's
 * code) is a resolved run, not a rejection. Rejects with AppError 404 `WORKFLOW_NOT_FOUND` when the
 * workflow is not the operator's; resolves with `status: "running"` when `waitMs` passes first.
 *
 * @example const run = await runAutomationNow(deps, { operatorId, workflowId, source: 'mcp', input: args }, { onProgress })
 */
export async function runAutomationNow(
  deps: AppDeps,
  input: StartRunInput,
  options: { waitMs?: number; onProgress?: (progress: RunProgress) => void } = {},
): Promise<WorkflowRun> {
  const workflow = await findWorkflow(deps.db, input.operatorId, input.workflowId);
  if (!workflow) throw new AppError(404, 'WORKFLOW_NOT_FOUND', 'Workflow not found');
  const { runId, handle } = await startAutomationRun(deps, input);
  const stopPolling = options.onProgress ? pollProgress(handle, options.onProgress) : () => undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    const outcome = await Promise.race([
      handle.result(),
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), options.waitMs ?? deps.config.WORKFLOW_TEST_WAIT_MS);
      }),
    ]);
    if (outcome !== 'timeout' && (outcome as AutomationRunResult).kind === 'ignored') throw new AppError(404, 'WORKFLOW_NOT_FOUND', 'Workflow not found');
  } finally {
    clearTimeout(timer);
    stopPolling();
  }
  const row = await findRun(deps.db, input.operatorId, runId);
  if (row) return toRunRecord(row);
  return {
    id: runId,
    workflowId: input.workflowId,
    workflowVersion: workflow.version,
    source: input.source,
    status: 'running',
    input: input.input,
    output: null,
    nodes: [],
    startedAt: new Date().toISOString(),
    completedAt: null,
    durationMs: null,
  };
}
