import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { readOutboxEvents } from '../db/queries/outbox';
import type { PendingOutboxRow } from '../db/queries/outboxDispatch';
import { waitedEventNames, waitsWokenBy, type ArrivedEvent, type RunWait } from '../db/queries/runWaits';
import type { WaitEventSignal } from '../workflows/automation/waitForEvent';

/** Signals one waiting run by its Temporal workflow id (temporal/runWaits.ts). */
export type SignalWaitingRun = (temporalWorkflowId: string, signal: WaitEventSignal) => Promise<'signalled' | 'not_running'>;

/** Waits the process has signalled for events still pending, kept at most this many. */
const KEPT = 50_000;

/**
 * The waits already signalled for events that are still pending, per process: an event that wakes more runs than its
 * organisation has room for stays pending, and its next pass signals the rest, not the same runs again. Lost with the
 * process, and not seen by another worker process that takes the next pass: those signal some runs twice, and a run
 * takes each event once (workflows/automation/waitForEvent.ts).
 */
export class WokenWaits {
  private readonly signalled = new Map<string, Set<string>>();
  private size = 0;

  has(seq: string, wait: { runId: string; nodeId: string }): boolean {
    return this.signalled.get(seq)?.has(`${wait.runId} ${wait.nodeId}`) ?? false;
  }

  add(seq: string, wait: { runId: string; nodeId: string }): void {
    if (this.size >= KEPT) this.forget([this.signalled.keys().next().value!]);
    const waits = this.signalled.get(seq) ?? new Set<string>();
    this.signalled.set(seq, waits);
    const key = `${wait.runId} ${wait.nodeId}`;
    if (waits.has(key)) return;
    waits.add(key);
    this.size += 1;
  }

  /** The events are dispatched: their waits are nobody's concern any more. */
  forget(seqs: string[]): void {
    for (const seq of seqs) {
      this.size -= this.signalled.get(seq)?.size ?? 0;
      this.signalled.delete(seq);
    }
  }
}

export interface WaitSignalDeps {
  logger: Logger;
  signal: SignalWaitingRun;
  /**
   * Takes the operator's room for one more wake-up (the woken run's Temporal id) if it has it now — room in flight and
   * a start of its share — without waiting: false leaves the event pending for a later pass. Always true when absent.
   */
  admit?: (temporalWorkflowId: string) => Promise<boolean>;
  woken?: WokenWaits;
}

const SIGNAL_CONCURRENCY = 16;

/**
 * The dispatcher's part of `action.wait_for_event`: for the claimed events some run waits for by name, finds the waits
 * of the same operator, event name and entity (by index) and signals each run with the event's id and place, event by
 * event in outbox order. Runs in the dispatch transaction, so a Temporal outage leaves the events pending for the next
 * pass; the waits of runs that ended without removing them come back as `ended`, for the pass to remove with its other
 * writes (it writes nothing before its end). Every lookup is bounded by the event's own operator: a signal only reaches
 * that operator's runs.
 *
 * Paced without waiting (docs/workflows.md "Wake-ups are paced"): once the operator has no room for another wake-up,
 * the event being woken and every later one stay pending, and the pass ends, as it does past its starts. `done` is how
 * many of the claimed events had every wait signalled.
 *
 * @example await signalWaitingRuns(deps, trx, claimed) // { signalled: 2, done: 40, ended: [] }
 */
export async function signalWaitingRuns(
  deps: WaitSignalDeps,
  trx: Knex.Transaction,
  claimed: PendingOutboxRow[],
): Promise<{ signalled: number; done: number; ended: RunWait[] }> {
  const all = { signalled: 0, done: claimed.length, ended: [] as RunWait[] };
  const names = await waitedEventNames(trx, [...new Set(claimed.map((row) => row.operator_id))], [...new Set(claimed.map((row) => row.event))]);
  if (names.length === 0) return all;
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
  // One admission at a time: each looks at the room the ones before it took.
  let turn: Promise<unknown> = Promise.resolve();
  const admitInTurn = (temporalWorkflowId: string): Promise<boolean> => {
    const admitted = turn.then(() => deps.admit!(temporalWorkflowId));
    turn = admitted.catch(() => undefined);
    return admitted;
  };
  const position = new Map(claimed.map((row, index) => [row.seq, index]));
  const byEvent = new Map<number, Array<RunWait & { index: number }>>();
  for (const wait of await waitsWokenBy(trx, arrived)) {
    const record = about[wait.index]!;
    if (record.event.operatorId !== wait.operatorId || deps.woken?.has(record.seq, wait)) continue;
    const at = position.get(record.seq)!;
    const waits = byEvent.get(at);
    if (waits) waits.push(wait);
    else byEvent.set(at, [wait]);
  }
  for (const at of [...byEvent.keys()].sort((a, b) => a - b)) {
    const waits = byEvent.get(at)!;
    const record = about[waits[0]!.index]!;
    let next = 0;
    let blocked = false;
    const worker = async () => {
      while (!blocked && next < waits.length) {
        const wait = waits[next++]!;
        if (deps.admit && !(await admitInTurn(wait.temporalWorkflowId))) {
          blocked = true;
          return;
        }
        const outcome = await deps.signal(wait.temporalWorkflowId, { nodeId: wait.nodeId, eventId: record.event.id, seq: record.seq });
        deps.woken?.add(record.seq, wait);
        if (outcome === 'signalled') all.signalled += 1;
        // The run ended without removing its wait (terminated, or closed by the run watchdog): the pass removes its row.
        else all.ended.push(wait);
      }
    };
    await Promise.all(Array.from({ length: Math.min(SIGNAL_CONCURRENCY, waits.length) }, worker));
    if (blocked) {
      all.done = at;
      break;
    }
  }
  if (all.signalled > 0) deps.logger.debug({ signalled: all.signalled }, 'waiting runs signalled');
  return all;
}
