import { beginRun } from '../commands/runs/begin';
import { endRun } from '../commands/runs/finish';
import type { RunAutomation } from '../commands/runs/runVersion';
import type { ValueReader } from '../core/automations/runValues';
import type { AutomationRunRecord } from '../core/automations/types';
import { toRunRecord } from '../core/automations/runRecord';
import type { BeginRunInput, BeginRunResult, FinishRunInput } from '../core/workflowContracts';
import type { AppDeps } from './deps';

/**
 * The bookends of a run the API waits for (`runAutomationNow`: manual test runs, MCP `tools/call`), which the API
 * records itself instead of the run's local activities; `automation` is the row the caller just read, which the begin
 * then need not read again. Each run it ends is counted in the API's metrics, as the worker counts the runs its own
 * begin and end steps end.
 */
export function waitedRunSteps(
  deps: AppDeps,
  automation?: RunAutomation,
): {
  begin: (run: BeginRunInput) => Promise<BeginRunResult>;
  finish: (outcome: FinishRunInput, read?: ValueReader) => Promise<AutomationRunRecord>;
} {
  return {
    async begin(run) {
      const begun = await beginRun(deps, run, automation);
      if (begun.kind === 'rejected') deps.metrics?.runFinished(begun.source, 'failed');
      return begun;
    },
    async finish(outcome, read) {
      const row = await endRun(deps, outcome, read);
      deps.metrics?.runFinished(row.source, row.status);
      return toRunRecord(row, deps.keyring);
    },
  };
}
