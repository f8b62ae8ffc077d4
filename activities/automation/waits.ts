import type { WaitedEvent } from '../../core/automations/nodes/waitForEvent';
import { openEventPii } from '../../core/pii';
import { markRunWaiting } from '../../db/queries/automationRuns';
import { awaitInFlightWriters, deleteRunWait, insertRunWait, readWaitedEvent, waitCandidatesSince, type WaitCandidate } from '../../db/queries/runWaits';
import type { ActivityDeps } from '../deps';
import { BOOKKEEPING, type ActivityDeclarations } from '../declarations';

export interface RegisterWaitInput {
  operatorId: string;
  runId: string;
  nodeId: string;
  temporalWorkflowId: string;
  event: string;
  externalId: string;
  /** ISO times: the wait began (events count from here) and times out. */
  since: string;
  until: string;
}

export interface LoadWaitedEventInput {
  operatorId: string;
  candidate: WaitCandidate;
  event: string;
  externalId: string;
  since: string;
}

/**
 * The database side of `action.wait_for_event` (workflows/automation/waitForEvent.ts), as local activities: register
 * the wait so the outbox dispatcher signals the run, read an event it was signalled (checked again here, so a signal
 * can only wake a run with its own operator's matching event), and remove the wait when it ends.
 */
export function createRunWaitActivities({ db, keyring }: ActivityDeps) {
  return {
    /**
     * Stores the wait, then answers the matching events already recorded since the wait began: an event written while
     * the wait was being stored (judged unheard, so never dispatched) is among them, since the read waits for the
     * writers that were in flight. Also marks the run waiting until its timeout, so the run watchdog leaves it be.
     */
    async registerRunWait(input: RegisterWaitInput): Promise<{ candidates: WaitCandidate[] }> {
      const since = new Date(input.since);
      await insertRunWait(db, { ...input, since, until: new Date(input.until) });
      await markRunWaiting(db, input.operatorId, input.runId, new Date(input.until));
      await awaitInFlightWriters(db);
      return { candidates: await waitCandidatesSince(db, { operatorId: input.operatorId, event: input.event, externalId: input.externalId, since }) };
    },

    /** The event a signal names, when it is the operator's, of the awaited name and entity, and not older than the wait; else null. */
    async loadWaitedEvent(input: LoadWaitedEventInput): Promise<WaitedEvent | null> {
      const found = await readWaitedEvent(db, input.operatorId, input.candidate.seq);
      if (!found || found.id !== input.candidate.eventId || found.event !== input.event) return null;
      if (found.entity?.externalId !== input.externalId || Date.parse(found.occurredAt) < Date.parse(input.since)) return null;
      let opened = found;
      try {
        opened = openEventPii(keyring, found);
      } catch {
        // A retired key: the run sees the fields sealed, as a trigger would.
      }
      return { id: opened.id, event: opened.event, occurredAt: opened.occurredAt, data: opened.data };
    },

    async endRunWait(input: { operatorId: string; runId: string; nodeId: string }): Promise<void> {
      await deleteRunWait(db, input.operatorId, input.runId, input.nodeId);
    },
  };
}

/** How each of these activities meets the budget of large data (../declarations.ts). */
export const RUN_WAIT_ACTIVITIES = {
  registerRunWait: BOOKKEEPING,
  loadWaitedEvent: BOOKKEEPING,
  endRunWait: BOOKKEEPING,
} satisfies ActivityDeclarations<typeof createRunWaitActivities>;
