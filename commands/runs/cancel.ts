import { findRun, type RunRow } from '../../db/queries/automationRuns';
import { markMcpTaskOfRunCancelRequested } from '../../db/queries/mcpTasks';
import type { CommandDeps } from '../deps';
import { CommandError } from '../errors';

/**
 * Asks Temporal to cancel a run's workflow by its Temporal workflow id: `not_running` when it has already closed.
 * Implemented by temporal/automationRuns.ts (`cancelAutomationRun`) and handed in by the caller, since commands sit
 * below temporal/ in the layers.
 */
export type RunWorkflowCancel = (temporalWorkflowId: string) => Promise<'requested' | 'not_running'>;

export interface CancelRunInput {
  operatorId: string;
  runId: string;
}

const notFound = () => new CommandError('RUN_NOT_FOUND', 'Run not found');
const notRunning = (status: string) => new CommandError('RUN_NOT_RUNNING', `The run has already ended (${status}): only a running run can be cancelled`);

/**
 * Cancels a running run, whatever started it (a test run, an event, a schedule, a webhook, an agent): its Temporal
 * workflow is cancelled — the run stops before its next node, a running delay is cut short, and it closes its record
 * `cancelled` (workflows/automationRun.ts) — and, when an agent started it as an MCP task, that task is marked
 * cancelled, so `tasks/get` says `cancelled` at once. Returns the run as it stands, usually still `running`.
 * `RUN_NOT_FOUND` for an unknown id and another operator's run alike; `RUN_NOT_RUNNING` once it has ended.
 */
export async function cancelRun(deps: Pick<CommandDeps, 'db'> & { cancelRunWorkflow: RunWorkflowCancel }, input: CancelRunInput): Promise<RunRow> {
  const { operatorId, runId } = input;
  const run = await findRun(deps.db, operatorId, runId);
  if (!run) throw notFound();
  if (run.status !== 'running') throw notRunning(run.status);
  if ((await deps.cancelRunWorkflow(run.temporal_workflow_id)) === 'not_running') {
    // Ended between the read and the cancel, or its workflow closed without recording it (the run watchdog's case).
    const now = await findRun(deps.db, operatorId, runId);
    throw now && now.status !== 'running'
      ? notRunning(now.status)
      : new CommandError('RUN_NOT_RUNNING', 'The run’s workflow has already closed: the run watchdog records how it ended');
  }
  // Marked after Temporal took the cancellation, so a task reads `cancelled` only for a run that will end so.
  if (run.source === 'mcp') await markMcpTaskOfRunCancelRequested(deps.db, operatorId, runId);
  return (await findRun(deps.db, operatorId, runId)) ?? run;
}
