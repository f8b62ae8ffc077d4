import type { Logger } from 'pino';
import { detectHarm } from '../commands/compliance/harm';
import { mayHoldRun } from '../core/automations/nodes';
import type { Keyring } from '../core/crypto';
import type { InternalEvent } from '../core/events';
import { openEventPii } from '../core/pii';
import type { Db } from '../db/knex';
import { readOutboxEvents } from '../db/queries/outbox';
import { automationsListeningTo, claimOperatorOutbox, inOperatorDispatch, markDispatched, type PendingOutboxRow } from '../db/queries/outboxDispatch';
import { deleteRunWait } from '../db/queries/runWaits';
import { insertTriggerSkips } from '../db/queries/triggerSkips';
import type { EventRoutes, Listener } from './eventRouter';
import type { EventRouter } from './eventRouting';
import type { DispatchFaults } from './dispatchFaults';
import type { InFlightRuns } from './inFlight';
import type { StartAdmission } from './startAdmission';
import { OverShareError } from './overShare';
import { controlOf, type EventRuns } from './runControl';
import { signalWaitingRuns, type SignalWaitingRun, type WokenWaits } from './runWaitSignals';
import { lanePacing, skipOf, startAll, type Routed } from './passStarts';

export interface DispatchDeps {
  db: Db;
  logger: Logger;
  keyring: Keyring;
  /** Who hears an event and whether its triggers pass (worker/eventRouting.ts). */
  router: EventRouter;
  /** Starts the runs events fire (through run control where an automation has it) and ends those `cancel_on` ends. */
  runs: EventRuns;
  /** Event-run starts and wake-ups each operator may make (worker/startAdmission.ts); unlimited when absent. */
  starts?: Pick<StartAdmission, 'take' | 'waitMs' | 'burst' | 'perSecond' | 'laneGapMs' | 'pace' | 'waited'>;
  /** The runs each operator has started or woken and not yet finished (worker/inFlight.ts); no cap when absent. */
  inFlight?: Pick<InFlightRuns, 'room' | 'add' | 'cap' | 'capOf' | 'light' | 'notePending'>;
  /** Signals runs waiting in an `action.wait_for_event` (worker/runWaitSignals.ts); without it no wait is woken. */
  signalWaitingRun?: SignalWaitingRun;
  /** The waits signalled for events still pending, so a later pass wakes the rest, not them again. */
  woken?: WokenWaits;
  /** Hears the age of an operator's oldest pending event each time its events are taken. */
  onLag?: (operatorId: string, seconds: number) => void;
}

/** What one pass over an operator's events came to. */
export type OperatorPass =
  /** Another dispatcher is working on this operator's events. */
  | { kind: 'elsewhere' }
  /** Every claimed event dispatched; `full` when the claim was a whole batch (more may wait). */
  | { kind: 'done'; claimed: number; started: number; full: boolean }
  /** Past its share (sandbox or run starts): the events from the first it could not finish wait for `retryInMs`. */
  | { kind: 'deferred'; claimed: number; started: number; retryInMs: number };

export const BATCH = 500;
/** Events whose filters are judged together: their sandbox filters go in one batch (worker/batchedEvaluations.ts). */
const JUDGED_AT_ONCE = 64;
/** The shortest pause before an operator past its share is tried again. */
const MIN_RETRY_MS = 200;
/** The pause before an operator whose automation had its most live run-control keys is tried again. */
const LANE_CAP_RETRY_MS = 1_000;
/** The pause before an operator with its most runs in flight looks again (its runs finish in tens to hundreds of ms). */
const IN_FLIGHT_RETRY_MS = 100;

/**
 * How many pending events a pass claims: one window's worth while the operator is held to the contended cap, whose
 * pass starts a run or two and stops there — a whole batch was read, opened and harm-checked about ten times a second
 * through a burst to use a handful of it (docs/workflows.md "A held organisation's pass claims 64 events, not 500").
 */
function claimSize(deps: DispatchDeps, operatorId: string): number {
  return deps.inFlight && deps.inFlight.capOf(operatorId) < deps.inFlight.cap ? JUDGED_AT_ONCE : BATCH;
}

/** The event with its entity's sealed fields opened; sealed as stored when a field cannot be opened (its key was retired). */
function triggerOf(deps: DispatchDeps, event: InternalEvent): InternalEvent {
  try {
    return openEventPii(deps.keyring, event);
  } catch {
    deps.logger.warn({ eventId: event.id }, 'entity fields of an event could not be opened; its runs see them sealed');
    return event;
  }
}

/** What an event's filters came to, judged without side effects: the run or skip of each automation that heard it. */
type Judgment = { kind: 'judged'; event: InternalEvent; routed: Routed } | { kind: 'over_share' } | { kind: 'error'; error: unknown };

/** One automation's run for the event, through its first trigger whose filter passes; a failed filter is a skip. */
async function judgeListener(deps: DispatchDeps, listener: Listener, row: PendingOutboxRow, event: InternalEvent): Promise<Routed | 'over_share'> {
  for (const trigger of listener.triggers) {
    const verdict = await deps.router.judge(trigger, event);
    if (verdict.kind === 'over_share') return 'over_share';
    if (verdict.kind === 'failed')
      return { runs: [], skips: [skipOf(deps, listener, event, trigger.node.id, { reason: 'filter_failed', code: verdict.code, message: verdict.message })] };
    if (verdict.kind === 'reject') continue;
    const run = { operatorId: row.operator_id, automationId: listener.automation.id, source: 'event' as const, input: event, triggerNodeId: trigger.node.id };
    const controlled = controlOf(listener.automation);
    const holds = mayHoldRun(listener.automation.nodes);
    return { runs: [{ ...run, eventId: event.id, seq: row.seq, holds, ...(controlled ? { runControl: controlled } : {}) }], skips: [] };
  }
  return { runs: [], skips: [] };
}

/** The runs one event starts and the triggers it skips. Filters only: no side effect, so a window of events is judged at once. */
async function judgeEvent(deps: DispatchDeps, routes: EventRoutes, row: PendingOutboxRow, stored: InternalEvent): Promise<Judgment> {
  try {
    const event = triggerOf(deps, stored);
    const judged = await Promise.all(routes.listenersOf(row, event).map((listener) => judgeListener(deps, listener, row, event)));
    if (judged.includes('over_share')) return { kind: 'over_share' };
    const routed = judged as Routed[];
    return { kind: 'judged', event, routed: { runs: routed.flatMap((one) => one.runs), skips: routed.flatMap((one) => one.skips) } };
  } catch (error) {
    return { kind: 'error', error };
  }
}

/** The event's `cancel_on` effects, in outbox order. Throws {@link OverShareError} when a `key` must wait for the share. */
async function cancelFor(deps: DispatchDeps, routes: EventRoutes, row: PendingOutboxRow, event: InternalEvent): Promise<void> {
  for (const automation of routes.cancellersOf(row)) {
    const controlled = controlOf(automation);
    if (controlled) await deps.runs.cancel({ ...controlled, operatorId: row.operator_id }, event);
  }
}

/** Whether the operator may wake one more run now (room in flight, then a start of its share): if so, counted in flight. */
async function admitted(deps: DispatchDeps, operatorId: string, temporalWorkflowId: string): Promise<boolean> {
  if (deps.inFlight && (await deps.inFlight.room(operatorId)) <= 0) return false;
  if (deps.starts && !deps.starts.take(operatorId, 1, deps.inFlight?.light(operatorId, 1) ?? false)) return false;
  deps.inFlight?.add(operatorId, temporalWorkflowId, true);
  return true;
}

/**
 * Dispatches one batch of one operator's pending events, in order, in one transaction holding that operator's dispatch
 * lock (db/queries/outboxDispatch.ts): its harm indicators first, the runs waiting for its events woken, then each
 * event to the automations that hear it (worker/eventRouter.ts), runs started, skipped triggers recorded, and the
 * events marked dispatched. A crash or an outage leaves them pending for the next pass; a repeated pass cannot start a
 * second run for the same (event, automation) (the Temporal id is derived from both, reuse rejected) nor record a skip
 * twice.
 *
 * Nothing is dropped for load. When the operator's share of the sandbox, of run starts or of room to wake its waiting
 * runs is spent, the pass stops at the first event it cannot finish: that event and every later one stay pending, in
 * order, and the operator is tried again once its share has refilled. An event whose own content makes its dispatch
 * throw (not an outage) is tried {@link DispatchFaults} times and then set aside as a skipped trigger, so it never
 * holds the operator's later events.
 */
export async function dispatchOperator(deps: DispatchDeps, operatorId: string, faults: DispatchFaults): Promise<OperatorPass> {
  return inOperatorDispatch<OperatorPass>(deps.db, operatorId, { kind: 'elsewhere' }, async (trx) => {
    let room = deps.inFlight ? await deps.inFlight.room(operatorId) : Number.POSITIVE_INFINITY;
    if (room <= 0) return { kind: 'deferred', claimed: 0, started: 0, retryInMs: IN_FLIGHT_RETRY_MS };
    const limit = claimSize(deps, operatorId);
    const claimed = await claimOperatorOutbox(trx, operatorId, limit);
    // A backlog found now may hold the operator to the contended cap from this pass on, not the next.
    if (deps.inFlight?.notePending(operatorId, claimed.length, claimed[0]?.occurred_at.getTime())) room = Math.min(room, await deps.inFlight.room(operatorId));
    if (claimed.length === 0) {
      deps.onLag?.(operatorId, 0);
      return { kind: 'done', claimed: 0, started: 0, full: false };
    }
    deps.onLag?.(operatorId, Math.max(0, (Date.now() - claimed[0]!.occurred_at.getTime()) / 1000));
    await detectHarm(deps, { claimed });
    // Waiting runs first: past the room to wake them, the event being woken and every later one wait for the next pass.
    let woke: Awaited<ReturnType<typeof signalWaitingRuns>> = { signalled: 0, done: claimed.length, ended: [] };
    if (deps.signalWaitingRun) {
      const waking = { logger: deps.logger, signal: deps.signalWaitingRun, admit: (id: string) => admitted(deps, operatorId, id), woken: deps.woken };
      woke = await signalWaitingRuns(waking, trx, claimed);
      if (woke.signalled > 0 && deps.inFlight) room = await deps.inFlight.room(operatorId);
    }
    const taken = claimed.slice(0, woke.done);
    const automations = await automationsListeningTo(trx, [operatorId], [...new Set(taken.map((row) => row.event))]);
    const routes = deps.router.routesFor(automations);
    const heard = taken.filter((row) => routes.hears(row));
    const records =
      heard.length === 0 ? [] : await readOutboxEvents(trx, { claimed: { seqs: heard.map((row) => row.seq), operatorIds: [operatorId] }, limit: heard.length });
    const events = new Map(records.map((record) => [record.seq, record.event]));
    const routed: Routed = { runs: [], skips: [] };
    let [stop, retryInMs] = woke.done < claimed.length ? [woke.done, IN_FLIGHT_RETRY_MS] : [claimed.length, 0];
    const heardRows = taken.filter((row) => events.has(row.seq));
    const indexOf = new Map(claimed.map((row, index) => [row.seq, index]));
    let reserved = 0;
    let pacing: ReturnType<typeof lanePacing> | undefined;
    let laned = 0;
    // Filters of a window of events are judged together (one sandbox batch per window), then applied in outbox order.
    windows: for (let start = 0; start < heardRows.length; start += JUDGED_AT_ONCE) {
      const window = heardRows.slice(start, start + JUDGED_AT_ONCE);
      const judgments = await Promise.all(window.map((row) => judgeEvent(deps, routes, row, events.get(row.seq)!)));
      for (const [offset, row] of window.entries()) {
        const judgment = judgments[offset]!;
        const event = events.get(row.seq)!;
        let one: Routed;
        try {
          if (judgment.kind === 'over_share') throw new OverShareError(operatorId);
          if (judgment.kind === 'error') throw judgment.error;
          await cancelFor(deps, routes, row, judgment.event);
          one = judgment.routed;
        } catch (error) {
          if (error instanceof OverShareError) {
            [stop, retryInMs] = [indexOf.get(row.seq)!, MIN_RETRY_MS];
            break windows;
          }
          if (!faults.setAside(row.seq, error)) throw error;
          const message = `The event could not be dispatched: ${(error as Error).message}`;
          const listeners = routes.listenersOf(row, event);
          one = {
            runs: [],
            skips: listeners.map((listener) => skipOf(deps, listener, event, null, { reason: 'dispatch_failed', code: 'DISPATCH_FAILED', message })),
          };
        }
        const direct = one.runs.filter((run) => !run.runControl).length;
        if (direct > 0 && reserved + direct > room && !(reserved === 0 && room === deps.inFlight?.cap)) {
          // Past its runs in flight: the rest waits for them to finish (an event heard by more automations than the cap still goes alone).
          [stop, retryInMs] = [indexOf.get(row.seq)!, IN_FLIGHT_RETRY_MS];
          break windows;
        }
        const lanes = one.runs.length - direct;
        if (lanes > 0) {
          pacing ??= lanePacing(deps, operatorId);
          if (laned > 0 && laned + lanes > pacing.most) {
            // As many lanes as this pass spaces out: the rest go in the next pass, at their places.
            deps.starts?.waited();
            [stop, retryInMs] = [indexOf.get(row.seq)!, pacing.gapMs];
            break windows;
          }
        }
        const count = Math.min(one.runs.length, deps.starts?.burst ?? 0);
        const light = deps.inFlight?.light(operatorId, reserved + count) ?? false;
        if (deps.starts && one.runs.length > 0 && !deps.starts.take(operatorId, count, light)) {
          // Back when a second's worth of starts has refilled, not at the first token: each pass costs a claim and a window's filters.
          const refilled = Math.min(deps.starts.burst, deps.starts.perSecond);
          [stop, retryInMs] = [indexOf.get(row.seq)!, Math.max(MIN_RETRY_MS, deps.starts.waitMs(operatorId, refilled))];
          break windows;
        }
        reserved += direct;
        laned += lanes;
        routed.runs.push(...one.runs);
        routed.skips.push(...one.skips);
      }
    }
    const listenersById = new Map(automations.map((automation) => [automation.id, automation]));
    const { started, capped } = await startAll(deps, faults, routed, listenersById, pacing?.gapMs ?? 0);
    if (capped !== undefined && indexOf.get(capped)! < stop) [stop, retryInMs] = [indexOf.get(capped)!, LANE_CAP_RETRY_MS];
    const done = claimed.slice(0, stop);
    // The pass's writes come last, together: until here it holds no transaction id (see claimOperatorOutbox).
    for (const wait of woke.ended) await deleteRunWait(trx, wait.operatorId, wait.runId, wait.nodeId);
    const doneIds = new Set(done.map((row) => events.get(row.seq)?.id));
    await insertTriggerSkips(
      trx,
      routed.skips.filter((skip) => doneIds.has(skip.eventId)),
    );
    await markDispatched(
      trx,
      done.map((row) => row.seq),
      [operatorId],
    );
    faults.forget(done.map((row) => row.seq));
    deps.woken?.forget(done.map((row) => row.seq));
    if (stop < claimed.length) return { kind: 'deferred', claimed: claimed.length, started, retryInMs };
    if (claimed.length < limit) deps.onLag?.(operatorId, 0);
    return { kind: 'done', claimed: claimed.length, started, full: claimed.length === limit };
  });
}
