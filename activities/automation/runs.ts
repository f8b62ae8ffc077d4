import { actionBudget, triggerFor } from '../../core/automations/graph';
import { triggerFieldsOf } from '../../core/automations/triggerPayload';
import { effectiveInputSchema, missingTriggerFields } from '../../core/automations/triggerSchema';
import type { RunError } from '../../core/automations/types';
import type { AwaitingInput } from '../../core/automations/approval';
import { finishRun, insertRun, markRunAwaitingInput, markRunWaiting, rejectRun } from '../../db/queries/automationRuns';
import { findAutomation } from '../../db/queries/automations';
import { getSettings } from '../../db/queries/settings';
import { quotaLimits, reserveActions, usageMonthOf } from '../../db/queries/automationUsage';
import type { ActivityDeps } from '../deps';
import { rerunSeed } from './rerun';
import { runVersionOf } from './runVersion';
import type { BeginRunInput, BeginRunResult, FinishRunInput, FinishRunResult } from './types';

const AUTOMATIC_SOURCES = new Set(['event', 'schedule', 'webhook']);

/**
 * The two bookends of every run, as local activities of `automationRunWorkflow`: begin records the run
 * and refuses it before any node when the trigger payload lacks a required field or the month's quota
 * cannot cover its worst case; finish stores the outcome once and gives back unused reserved Actions.
 */
export function createRunActivities({ db, config, keyring }: ActivityDeps) {
  const defaults = { actions: config.QUOTA_ACTIONS_PER_MONTH, aiActions: config.QUOTA_AI_ACTIONS_PER_MONTH };
  return {
    async beginAutomationRun(input: BeginRunInput): Promise<BeginRunResult> {
      const automation = await findAutomation(db, input.operatorId, input.automationId);
      if (!automation) return { kind: 'ignored', reason: 'automation not found' };
      if (!automation.active && AUTOMATIC_SOURCES.has(input.source) && !input.rerun) return { kind: 'ignored', reason: 'automation inactive' };
      // A pinned run (a rerun on its original's version) executes that stored version; others the current definition.
      const runVersion = await runVersionOf(db, automation, input.pinnedVersion);
      if (!runVersion) return { kind: 'ignored', reason: `version ${input.pinnedVersion} not found` };
      const { definition } = runVersion;
      const trigger = triggerFor(definition, input.source, input.triggerNodeId);
      if (!trigger) return { kind: 'ignored', reason: `no trigger for source ${input.source}` };
      const month = usageMonthOf(new Date(input.startedAt));
      // A rerun starts from its original's payload and keeps its completed results (activities/automation/rerun.ts).
      const seed = input.rerun ? await rerunSeed({ db, keyring }, input.operatorId, input.rerun, definition, trigger.id, runVersion.version) : undefined;
      const refused = seed && 'error' in seed ? seed.error : null;
      const payload = seed && 'input' in seed ? seed.input : input.input;
      const budget = seed && 'budget' in seed ? seed.budget : actionBudget(definition, trigger.id);
      // An event's fields were checked against the template when it was written; other payloads are checked here.
      const template = trigger.type === 'trigger.event' && input.source !== 'event' ? (await getSettings(db, input.operatorId)).templateSchema : null;
      const missing = input.source === 'event' ? [] : missingTriggerFields(effectiveInputSchema(trigger, template), triggerFieldsOf(trigger.type, payload));

      return db.transaction(async (trx): Promise<BeginRunResult> => {
        const { row, created } = await insertRun(trx, keyring, {
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
          reserved: missing.length > 0 || refused ? { actions: 0, aiActions: 0 } : budget,
          ...(input.rerun ? { rerun: input.rerun } : {}),
        });
        const started: BeginRunResult = {
          kind: 'started',
          runId: row.id,
          workflow: { id: automation.id, name: runVersion.name, version: runVersion.version },
          definition,
          triggerNodeId: trigger.id,
          triggerType: trigger.type,
          reserved: budget,
          ...(seed && 'reused' in seed ? { rerun: { input: payload, reused: seed.reused } } : {}),
        };
        if (!created) {
          // The same run id is this begin retried after it committed (a lost result, a timeout): carry on with what it stored.
          if (row.id !== input.runId) return { kind: 'duplicate', runId: row.id };
          if (row.status === 'running') return { ...started, reserved: { actions: row.reserved_actions, aiActions: row.reserved_ai_actions } };
          return { kind: 'rejected', runId: row.id, source: row.source };
        }

        const reject = async (error: RunError): Promise<BeginRunResult> => {
          await rejectRun(trx, keyring, input.operatorId, row.id, error);
          return { kind: 'rejected', runId: row.id, source: row.source };
        };
        if (refused) return reject(refused);
        if (missing.length > 0) {
          return reject({ code: 'MISSING_TRIGGER_FIELD', message: `Missing required trigger field${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}` });
        }
        if (!(await reserveActions(trx, input.operatorId, month, budget, defaults))) {
          const limits = await quotaLimits(trx, input.operatorId, defaults);
          const which = budget.aiActions > 0 ? 'Actions or AI Actions' : 'Actions';
          return reject({
            code: 'QUOTA_EXCEEDED',
            message: `Monthly ${which} quota exceeded (limits: ${limits.actions} Actions, ${limits.aiActions} AI Actions)`,
          });
        }
        return started;
      });
    },

    /** Notes that the run sleeps until `until` (a long `action.delay`), so the run watchdog does not ask about it meanwhile. */
    async markAutomationRunWaiting(input: { operatorId: string; runId: string; until: string }): Promise<void> {
      await markRunWaiting(db, input.operatorId, input.runId, new Date(input.until));
    },

    /** Records what the run now waits for a person or an agent to answer (an `action.approval`), or that it no longer waits. */
    async markAutomationRunAwaitingInput(input: { operatorId: string; runId: string; awaiting: AwaitingInput | null }): Promise<void> {
      await markRunAwaitingInput(db, keyring, input.operatorId, input.runId, input.awaiting);
    },

    /** Returns the run as stored, so whoever waits for the run has it without reading it again. */
    async finishAutomationRun(input: FinishRunInput): Promise<FinishRunResult> {
      const row = await finishRun(db, keyring, input.operatorId, input.runId, {
        status: input.status,
        output: input.output,
        nodes: input.nodes,
        error: input.error,
        executed: input.executed,
      });
      if (!row) throw new Error(`run ${input.runId} vanished before it finished`);
      return { runId: row.id, source: row.source, status: row.status };
    },
  };
}
