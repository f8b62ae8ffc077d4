import type { ValueReader } from '../../core/automations/runValues';
import type { FinishRunInput } from '../../core/workflowContracts';
import { finishRun, type RunRow } from '../../db/queries/automationRuns';
import type { CommandDeps } from '../deps';

/**
 * Ends a run once: its outcome stored and its unused reserved Actions given back (db/queries/automationRuns.ts
 * `finishRun`). The run workflow's end step calls it, and the API for a run it waits for (a manual test run, an MCP
 * `tools/call`), which it records itself. `read` brings in the step values the outcome holds as references. A run
 * whose record is gone is a fault, never a refusal: nothing but a bug removes a running run.
 */
export async function endRun(deps: Pick<CommandDeps, 'db' | 'keyring'>, outcome: FinishRunInput, read?: ValueReader): Promise<RunRow> {
  const { operatorId, runId, status, output, nodes, error, executed } = outcome;
  const row = await finishRun(deps.db, deps.keyring, operatorId, runId, { status, output, nodes, error, executed }, read);
  if (!row) throw new Error(`run ${runId} vanished before it finished`);
  return row;
}
