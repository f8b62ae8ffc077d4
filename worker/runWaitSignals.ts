import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { readOutboxEvents } from '../db/queries/outbox';
import type { PendingOutboxRow } from '../db/queries/outboxDispatch';
import { deleteRunWait, waitedEventNames, waitsWokenBy, type ArrivedEvent } from '../db/queries/runWaits';
import type { WaitEventSignal } from '../workflows/automation/waitForEvent';

/** Signals one waiting run by its Temporal workflow id (temporal/runWaits.ts). */
export type SignalWaitingRun = (temporalWorkflowId: string, signal: WaitEventSignal) => Promise<'signalled' | 'not_running'>;

export interface WaitSignalDeps {
  logger: Logger;
  signal: SignalWaitingRun;
  /**
   * Waits for the operator's share of starts and room in flight before each wake-up (the woken run's Temporal id):
   * a thousand runs woken at once are paced like new runs.
   */
  pace?: (temporalWorkflowId: string) => Promise<void>;
}

const SIGNAL_CONCURRENCY = 16;

/**
 * The dispatcher's part of `action.wait_for_event`: for the claimed events some run waits for by name, finds the waits
 * of the same operator, event name and entity (by index) and signals each run with the event's id and place. Runs in
 * the dispatch transaction, so a Temporal outage leaves the events pending for the next pass; the wait of a run that
 * has ended without removing it is removed. Every lookup is bounded by the event's own operator: a signal only reaches that operator's runs.
 *
 * @example await signalWaitingRuns(deps, trx, claimed) // 2
 */
export async function signalWaitingRuns(deps: WaitSignalDeps, trx: Knex.Transaction, claimed: PendingOutboxRow[]): Promise<number> {
  const names = await waitedEventNames(trx, [...new Set(claimed.map((row) => row.operator_id))], [...new Set(claimed.map((row) => row.event))]);
  if (names.length === 0) return 0;
  const waited = new Set(names.map((name) => `${name.operator_id} ${name.event}`));
  const rows = claimed.filter((row) => waited.has(`${row.operator_id} ${row.event}`));
  const operatorIds = [...new Set(rows.map((row) => row.operator_id))];
  const records = await readOutboxEvents(trx, { claimed: { seqs: rows.map((row) => row.seq), operatorIds }, limit: rows.length });
  const about = records.filter((record) => record.event.entity?.externalId);
  const arrived: ArrivedEvent[] = about.map(({ event }) => ({
    operatorId: event.operatorId,
    event: event.event,
    externalId: event.entity!.externalId,
    occurredAt: event.occurredAt,
  }));
  const woken = await waitsWokenBy(trx, arrived);
  let next = 0;
  let signalled = 0;
  const worker = async () => {
    while (next < woken.length) {
      const wait = woken[next++]!;
      const record = about[wait.index]!;
      if (record.event.operatorId !== wait.operatorId) continue;
      await deps.pace?.(wait.temporalWorkflowId);
      const outcome = await deps.signal(wait.temporalWorkflowId, { nodeId: wait.nodeId, eventId: record.event.id, seq: record.seq });
      if (outcome === 'signalled') signalled += 1;
      // The run ended without removing its wait (terminated, or closed by the run watchdog): the row goes now.
      else await deleteRunWait(trx, wait.operatorId, wait.runId, wait.nodeId);
    }
  };
  await Promise.all(Array.from({ length: Math.min(SIGNAL_CONCURRENCY, woken.length) }, worker));
  if (signalled > 0) deps.logger.debug({ signalled }, 'waiting runs signalled');
  return signalled;
}
