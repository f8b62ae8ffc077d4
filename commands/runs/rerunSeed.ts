import type { Keyring } from '../../core/crypto';
import { rerunPlan, rerunStepProblem, type RerunPlan } from '../../core/automations/rerun';
import { isRecord, type AutomationDefinition, type RunError } from '../../core/automations/types';
import { openRunParts } from '../../core/runSeal';
import { findRun } from '../../db/queries/automationRuns';
import { withWholeValues } from '../../db/queries/runValues';
import type { Db } from '../../db/knex';

export type RerunSeed = (RerunPlan & { input: unknown }) | { error: RunError };

/**
 * What a rerun starts from, read by the begin activity (never carried by the workflow input): the original run's
 * trigger payload and the results it keeps (`rerunPlan`). The original is looked up with the rerun's own operator id, so
 * another operator's run is simply not found. Refused, and recorded as the rerun's error, when the original is gone,
 * still running, erased (its payload redacted), or when `fromNodeId` is not a non-trigger step of the definition the
 * rerun executes (the automation changed between the request and the start).
 */
export async function rerunSeed(
  deps: { db: Db; keyring: Keyring },
  operatorId: string,
  rerun: { runId: string; fromNodeId: string },
  definition: AutomationDefinition,
  triggerId: string,
  version: number,
): Promise<RerunSeed> {
  const original = await findRun(deps.db, operatorId, rerun.runId);
  if (!original) return { error: { code: 'RUN_NOT_FOUND', message: `The run ${rerun.runId} to rerun was not found` } };
  if (original.status === 'running') return { error: { code: 'RUN_STILL_RUNNING', message: `The run ${rerun.runId} is still running` } };
  const problem = rerunStepProblem(definition, rerun.fromNodeId, version);
  if (problem) return { error: { code: 'RERUN_STEP_NOT_FOUND', message: problem } };
  const parts = await openRunParts(deps.keyring, operatorId, original.id, original, { whole: true });
  if (isRecord(parts.input) && parts.input._redacted === true) {
    return { error: { code: 'RUN_REDACTED', message: 'The run to rerun is about an erased entity: its payload is gone' } };
  }
  // The steps it keeps carry their whole outputs again, large ones read back from where they were stored apart.
  const nodes = await withWholeValues(deps.db, deps.keyring, operatorId, original.id, parts.nodes);
  return { input: parts.input, ...rerunPlan(definition, triggerId, rerun.fromNodeId, nodes) };
}
