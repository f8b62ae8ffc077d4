import type { AwaitingInput } from '../../core/automations/approval';
import { beginRun } from '../../commands/runs/begin';
import { endRun } from '../../commands/runs/finish';
import { refReaderOf } from '../../core/payloadRef';
import { markRunAwaitingInput, markRunWaiting } from '../../db/queries/automationRuns';
import { storedSettings } from '../../db/settingsPort';
import type { ActivityDeps } from '../deps';
import type { BeginRunInput, BeginRunResult, FinishRunInput, FinishRunResult } from './types';
import { BOOKKEEPING, type ActivityDeclarations } from '../declarations';

/**
 * The two bookends of every run, as local activities of `automationRunWorkflow`: begin records the run
 * and refuses it before any node when the trigger payload lacks a required field or the month's quota
 * cannot cover its worst case (commands/runs/begin.ts; skipped for a run its caller began); finish stores
 * the outcome once and gives back unused reserved Actions.
 */
export function createRunActivities({ db, config, keyring }: ActivityDeps) {
  return {
    beginAutomationRun(input: BeginRunInput): Promise<BeginRunResult> {
      return beginRun({ db, keyring, config, settings: storedSettings(db) }, input);
    },

    /** Notes that the run sleeps until `until` (a long `action.delay`), so the run watchdog does not ask about it meanwhile. */
    async markAutomationRunWaiting(input: { operatorId: string; runId: string; until: string }): Promise<void> {
      await markRunWaiting(db, input.operatorId, input.runId, new Date(input.until));
    },

    /** Records what the run now waits for a person or an agent to answer (an `action.approval`), or that it no longer waits. */
    async markAutomationRunAwaitingInput(input: { operatorId: string; runId: string; awaiting: AwaitingInput | null }): Promise<void> {
      await markRunAwaitingInput(db, keyring, input.operatorId, input.runId, input.awaiting);
    },

    /**
     * Returns the run as stored, so whoever waits for the run has it without reading it again. Its step values arrive as
     * the run holds them (large ones as references) and are read in one at a time (worker/payloadRefInterceptor.ts).
     */
    async finishAutomationRun(input: FinishRunInput): Promise<FinishRunResult> {
      const row = await endRun({ db, keyring }, input, refReaderOf(input));
      return { runId: row.id, source: row.source, status: row.status };
    },
  };
}

/** How each of these activities meets the budget of large data (../declarations.ts). */
export const RUN_ACTIVITIES = {
  beginAutomationRun: { ...BOOKKEEPING, result: 'whole' },
  markAutomationRunWaiting: BOOKKEEPING,
  markAutomationRunAwaitingInput: BOOKKEEPING,
  finishAutomationRun: { ...BOOKKEEPING, args: 'reader' },
} satisfies ActivityDeclarations<typeof createRunActivities>;
