import type { Actor } from '../../core/audit';
import { triggerFor } from '../../core/automations/graph';
import { rerunStepProblem, type RerunVersion } from '../../core/automations/rerun';
import type { AutomationDefinition, RunSource } from '../../core/automations/types';
import { findRun } from '../../db/queries/automationRuns';
import { findAutomation } from '../../db/queries/automations';
import { findVersion } from '../../db/queries/automationVersions';
import type { CommandDeps } from '../deps';
import { recordAuditAct } from '../audit';
import { CommandError } from '../errors';

/**
 * Starts a rerun's Temporal workflow and returns its run id. Implemented by temporal/automationReruns.ts (`startRerun`)
 * and handed in by the caller, since commands sit below temporal/ in the layers. It carries ids only: the begin
 * activity reads the original's payload and results with the same operator id.
 */
export type RerunStart = (input: {
  operatorId: string;
  automationId: string;
  source: RunSource;
  triggerNodeId?: string;
  pinnedVersion?: number;
  rerun: { runId: string; fromNodeId: string };
}) => Promise<{ runId: string }>;

export interface RerunInput {
  operatorId: string;
  runId: string;
  fromNodeId: string;
  version: RerunVersion;
  /** Who asks: the rerun is on the audit trail as `run.rerun_started`, its target the new run. */
  actor: Actor;
}

export interface RerunStarted {
  runId: string;
  rerunOf: string;
  fromNodeId: string;
  /** The version the rerun executes: the original's (`run`) or the automation's current one. */
  workflowVersion: number;
}

const invalid = (field: string, message: string) => new CommandError('VALIDATION_FAILED', `Invalid input: ${message}`, [{ field, message }]);

/**
 * Reruns a finished run from one of its steps (docs/workflows.md "Rerun and replay"): a new run with the original's
 * trigger payload that keeps the original's completed results before `fromNodeId` and runs `fromNodeId` and every step
 * reachable from it again, on the original's version (`run`) or the automation's current one. `RUN_NOT_FOUND` for an
 * unknown id and another operator's run alike; `RUN_STILL_RUNNING` while the original runs; `WORKFLOW_NOT_FOUND`
 * once its automation is deleted; `VALIDATION_FAILED` naming `fromNodeId` unless it is a non-trigger step of that
 * version (or `version` when that version cannot run the original's trigger).
 */
export async function rerunRun(deps: Pick<CommandDeps, 'db'> & { startRerun: RerunStart }, input: RerunInput): Promise<RerunStarted> {
  const { operatorId } = input;
  const original = await findRun(deps.db, operatorId, input.runId);
  if (!original) throw new CommandError('RUN_NOT_FOUND', 'Run not found');
  if (original.status === 'running') {
    throw new CommandError('RUN_STILL_RUNNING', 'The run is still running: rerun it once it has ended (or cancel it first)');
  }
  const automation = await findAutomation(deps.db, operatorId, original.automation_id);
  if (!automation) throw new CommandError('WORKFLOW_NOT_FOUND', 'The workflow of this run has been deleted');
  // Pinned even when it is the current version, so an edit saved before the rerun begins does not change what it runs.
  const stored = input.version === 'run' ? await findVersion(deps.db, operatorId, automation.id, original.automation_version) : undefined;
  if (input.version === 'run' && !stored && original.automation_version !== automation.version) {
    throw invalid('version', `version ${original.automation_version} of this workflow is not stored: rerun it on the current version`);
  }
  const pinned = stored?.version;
  const definition: AutomationDefinition = stored
    ? { nodes: stored.definition.nodes, edges: stored.definition.edges }
    : { nodes: automation.nodes, edges: automation.edges };
  const workflowVersion = pinned ?? automation.version;
  const problem = rerunStepProblem(definition, input.fromNodeId, workflowVersion);
  if (problem) throw invalid('fromNodeId', problem);
  const triggerNodeId = original.trigger_node_id ?? undefined;
  if (!triggerFor(definition, original.source, triggerNodeId)) {
    throw invalid('version', `version ${workflowVersion} has no trigger ${triggerNodeId ?? `for ${original.source} runs`}: rerun it on the run's version`);
  }
  const { runId } = await deps.startRerun({
    operatorId,
    automationId: automation.id,
    source: original.source,
    ...(triggerNodeId ? { triggerNodeId } : {}),
    ...(pinned === undefined ? {} : { pinnedVersion: pinned }),
    rerun: { runId: original.id, fromNodeId: input.fromNodeId },
  });
  await recordAuditAct(deps.db, {
    operatorId,
    actor: input.actor,
    action: 'run.rerun_started',
    target: { type: 'run', id: runId },
    record: { runId, rerunOf: original.id, workflowId: automation.id, fromNodeId: input.fromNodeId, workflowVersion },
    summary: `Rerun of ${original.id} from step ${input.fromNodeId} on version ${workflowVersion}`,
  });
  return { runId, rerunOf: original.id, fromNodeId: input.fromNodeId, workflowVersion };
}
