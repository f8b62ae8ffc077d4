import { beginRun } from '../commands/runs/begin';
import type { BeginRunInput, BeginRunResult } from '../core/workflowContracts';
import type { AppDeps } from './deps';

/**
 * The begin of a run the API waits for (`runAutomationNow`: manual test runs, MCP `tools/call`): the run recorded by
 * commands/runs/begin.ts, and a run refused there counted as ended `failed` in the API's metrics, as the worker
 * counts the runs its begin step refuses.
 */
export function beginWaitedRun(deps: AppDeps): (run: BeginRunInput) => Promise<BeginRunResult> {
  return async (run) => {
    const begun = await beginRun(deps, run);
    if (begun.kind === 'rejected') deps.metrics?.runFinished(begun.source, 'failed');
    return begun;
  };
}
