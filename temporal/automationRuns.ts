import type { AppDeps } from '../api/deps';
import type { RunSource, WorkflowRun } from '../core/workflows/types';

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

export interface RunProgress {
  /** Nodes finished so far. */
  progress: number;
  /** Nodes the run can reach at most. */
  total: number;
  message?: string;
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
  _deps: AppDeps,
  _input: StartRunInput,
  _options: { waitMs?: number; onProgress?: (progress: RunProgress) => void } = {},
): Promise<WorkflowRun> {
  throw new Error('not implemented yet');
}
