import { actionBudget, triggerFor } from '../../core/automations/graph';
import { triggerFieldsOf } from '../../core/automations/triggerPayload';
import { effectiveInputSchema, missingTriggerFields } from '../../core/automations/triggerSchema';
import type { RunError } from '../../core/automations/types';
import type { BeginRunInput, BeginRunResult } from '../../core/workflowContracts';
import { insertRun, restateRefusal } from '../../db/queries/automationRuns';
import { findAutomation } from '../../db/queries/automations';
import { quotaLimits, usageMonthOf } from '../../db/queries/automationUsage';
import type { CommandDeps } from '../deps';
import { rerunSeed } from './rerunSeed';
import { runVersionOf, type RunAutomation } from './runVersion';

const AUTOMATIC_SOURCES = new Set(['event', 'schedule', 'webhook']);

/**
 * Records a run as `running` before its first node, or refuses it: `ignored` (nothing recorded) when the automation
 * is not the operator's, is inactive for an automatic source or has no trigger for the source; `rejected` (stored
 * `failed`) when the trigger payload lacks a required field or the month's quota cannot cover the run's worst case,
 * which is reserved otherwise — in the one statement that inserts the run (`insertRun`), so a run is never `running`
 * without its reservation. Keyed by the run's Temporal workflow id: begun again (a retried local activity, a lost
 * answer), it answers what the first one stored and reserves nothing twice.
 *
 * `known` is the automation as the caller just read it (the tool an MCP call names), saving the read.
 *
 * The run workflow's first local activity, or — for a run its caller waits for — the caller itself, just before it
 * starts the workflow with the answer (`AutomationRunInput.begun`). A caller that dies in between leaves a `running`
 * run with no workflow; the run watchdog closes it `RUN_LOST` and gives its reservation back (worker/runWatchdog.ts).
 *
 * @example await beginRun(deps, { operatorId, automationId, source: 'mcp', input, runId, temporalWorkflowId, startedAt }) // { kind: 'started', … }
 */
export async function beginRun(
  deps: Pick<CommandDeps, 'db' | 'keyring' | 'config' | 'settings'>,
  input: BeginRunInput,
  known?: RunAutomation,
): Promise<BeginRunResult> {
  const { db, keyring, config } = deps;
  const automation =
    known?.id === input.automationId && known.operator_id === input.operatorId ? known : await findAutomation(db, input.operatorId, input.automationId);
  if (!automation) return { kind: 'ignored', reason: 'automation not found' };
  if (!automation.active && AUTOMATIC_SOURCES.has(input.source) && !input.rerun) return { kind: 'ignored', reason: 'automation inactive' };
  // A pinned run (a rerun on its original's version) executes that stored version; others the current definition.
  const runVersion = await runVersionOf(db, automation, input.pinnedVersion);
  if (!runVersion) return { kind: 'ignored', reason: `version ${input.pinnedVersion} not found` };
  const { definition } = runVersion;
  const trigger = triggerFor(definition, input.source, input.triggerNodeId);
  if (!trigger) return { kind: 'ignored', reason: `no trigger for source ${input.source}` };
  const month = usageMonthOf(new Date(input.startedAt));
  // A rerun starts from its original's payload and keeps its completed results (commands/runs/rerunSeed.ts).
  const seed = input.rerun ? await rerunSeed({ db, keyring }, input.operatorId, input.rerun, definition, trigger.id, runVersion.version) : undefined;
  const refused = seed && 'error' in seed ? seed.error : null;
  const payload = seed && 'input' in seed ? seed.input : input.input;
  const budget = seed && 'budget' in seed ? seed.budget : actionBudget(definition, trigger.id);
  // An event's fields were checked against the template when it was written; other payloads are checked here.
  const template = trigger.type === 'trigger.event' && input.source !== 'event' ? (await deps.settings.of(input.operatorId)).templateSchema : null;
  const missing = input.source === 'event' ? [] : missingTriggerFields(effectiveInputSchema(trigger, template), triggerFieldsOf(trigger.type, payload));
  const defaults = { actions: config.QUOTA_ACTIONS_PER_MONTH, aiActions: config.QUOTA_AI_ACTIONS_PER_MONTH };

  const refusal: RunError | undefined =
    refused ??
    (missing.length > 0
      ? { code: 'MISSING_TRIGGER_FIELD', message: `Missing required trigger field${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}` }
      : undefined);
  const which = budget.aiActions > 0 ? 'Actions or AI Actions' : 'Actions';
  const { row, created } = await insertRun(
    db,
    keyring,
    {
      id: input.runId,
      operatorId: input.operatorId,
      automationId: automation.id,
      automationVersion: runVersion.version,
      source: input.source,
      triggerNodeId: trigger.id,
      temporalWorkflowId: input.temporalWorkflowId,
      ...(input.mcpRequest === undefined ? {} : { mcpRequest: input.mcpRequest }),
      input: payload,
      usageMonth: month,
      reserved: refusal ? { actions: 0, aiActions: 0 } : budget,
      ...(input.rerun ? { rerun: input.rerun } : {}),
      ...(refusal ? { refused: refusal } : {}),
    },
    { defaults, exceeded: { code: 'QUOTA_EXCEEDED', message: `Monthly ${which} quota exceeded` } },
  );
  if (created && row.status === 'failed' && !refusal) {
    // The statement could not know the limits the quota met; a crash before this leaves the message without them.
    const limits = await quotaLimits(db, input.operatorId, defaults);
    await restateRefusal(db, keyring, input.operatorId, row.id, {
      code: 'QUOTA_EXCEEDED',
      message: `Monthly ${which} quota exceeded (limits: ${limits.actions} Actions, ${limits.aiActions} AI Actions)`,
    });
  }
  // Begun again (a retried local activity, a lost answer), the run carries on with what its first begin stored.
  if (!created && row.id !== input.runId) return { kind: 'duplicate', runId: row.id };
  if (row.status !== 'running') return { kind: 'rejected', runId: row.id, source: row.source };
  return {
    kind: 'started',
    runId: row.id,
    workflow: { id: automation.id, name: runVersion.name, version: runVersion.version },
    definition,
    triggerNodeId: trigger.id,
    triggerType: trigger.type,
    reserved: { actions: row.reserved_actions, aiActions: row.reserved_ai_actions },
    ...(seed && 'reused' in seed ? { rerun: { input: payload, reused: seed.reused } } : {}),
  };
}
