import type { Logger } from 'pino';
import { detectHarm } from '../commands/compliance/harm';
import type { Keyring } from '../core/crypto';
import type { InternalEvent } from '../core/events';
import { openEventPii } from '../core/pii';
import type { Db } from '../db/knex';
import { readOutboxEvents } from '../db/queries/outbox';
import {
  claimPendingOutbox,
  markDispatched,
  settleUnheardOutbox,
  automationsListeningTo,
  type EventAutomationRow,
  type PendingOutboxRow,
} from '../db/queries/outboxDispatch';
import type { TokenBuckets } from '../core/tokenBuckets';
import type { EventFilters } from './eventFilters';
import { controlOf, type ControlledEventRun, type RunControlDispatch } from './runControl';
import { signalWaitingRuns, type SignalWaitingRun } from './runWaitSignals';

/** Starts the run one event fires for one automation; `duplicate` when that pair already has one. */
export type StartEventRun = (input: ControlledEventRun) => Promise<'started' | 'duplicate'>;

export interface DispatchDeps {
  db: Db;
  logger: Logger;
  keyring: Keyring;
  startEventRun: StartEventRun;
  /** Trigger filters, evaluated in the sandbox. */
  filters: EventFilters;
  /** Event-run starts each operator may make (`EVENT_RUNS_PER_SECOND`); unlimited when absent. */
  starts?: TokenBuckets;
  /** Run control (worker/runControl.ts): `startEventRun` routes controlled runs through it; without it runs start uncontrolled. */
  runControl?: Pick<RunControlDispatch, 'cancel'>;
  /** Signals runs waiting in an `action.wait_for_event` (worker/runWaitSignals.ts); without it no wait is woken. */
  signalWaitingRun?: SignalWaitingRun;
}

type EventRun = ControlledEventRun;

const BATCH = 500;
const START_CONCURRENCY = 16;

/** Same operator, listening to the event, created (or re-activated) before it, and not the automation whose run wrote it. */
const fires = (automation: EventAutomationRow, row: PendingOutboxRow) =>
  automation.operator_id === row.operator_id &&
  automation.trigger_events.includes(row.event) &&
  row.occurred_at >= automation.events_since &&
  row.origin_workflow_id !== automation.id;

/** The event with its entity's sealed fields opened; sealed as stored when a field cannot be opened (its key was retired). */
function triggerOf(deps: DispatchDeps, event: InternalEvent): InternalEvent {
  try {
    return openEventPii(deps.keyring, event);
  } catch {
    deps.logger.warn({ eventId: event.id }, 'entity fields of an event could not be opened; its runs see them sealed');
    return event;
  }
}

/**
 * The runs one event starts: each listening automation once, through its first trigger node whose filter passes. An
 * event's filters are evaluated one after another (the first that passes wins); events are judged concurrently.
 */
async function runsFor(deps: DispatchDeps, stored: InternalEvent, claimed: PendingOutboxRow, automations: EventAutomationRow[]): Promise<EventRun[]> {
  const runs: EventRun[] = [];
  const event = triggerOf(deps, stored);
  for (const automation of automations) {
    if (!fires(automation, claimed)) continue;
    const controlled = deps.runControl && controlOf(automation);
    if (controlled) await deps.runControl!.cancel({ ...controlled, operatorId: claimed.operator_id }, event);
    for (const node of automation.nodes) {
      if (node.type !== 'trigger.event' || node.params.event !== event.event) continue;
      if (!(await deps.filters.passes(automation, node, event))) continue;
      const run: EventRun = {
        operatorId: claimed.operator_id,
        automationId: automation.id,
        source: 'event',
        input: event,
        triggerNodeId: node.id,
        eventId: event.id,
      };
      runs.push(controlled ? { ...run, runControl: controlled } : run);
      break;
    }
  }
  return runs;
}

/** Operators that may not start another event run now: their pending events are left out of this pass's claim. */
const throttledOperators = (deps: DispatchDeps): string[] => (deps.starts ? deps.starts.exhausted() : []);

async function startAll(deps: DispatchDeps, runs: EventRun[]): Promise<number> {
  let started = 0;
  let next = 0;
  const worker = async () => {
    while (next < runs.length) {
      const run = runs[next++]!;
      if ((await deps.startEventRun(run)) === 'started') started += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(START_CONCURRENCY, runs.length) }, worker));
  return started;
}

/**
 * Dispatches one batch of undispatched outbox events to the automations listening for them and marks the
 * batch dispatched — all in one transaction, so a crash or a Temporal outage leaves the events pending
 * for the next pass (the listener or the 60 s sweep). A repeated pass cannot start a second run for the
 * same (event, automation): the Temporal workflow id is derived from both and reuse is rejected. Events no
 * automation listens to are settled first, in one statement, and most passes end there; deposits go on to the
 * claim, whose harm check (commands/compliance/harm.ts) runs in transactions of its own that commit before any start.
 */
async function dispatchBatch(deps: DispatchDeps): Promise<{ claimed: number; started: number }> {
  const settled = await settleUnheardOutbox(deps.db, BATCH);
  if (settled.heard === 0) return { claimed: settled.taken, started: 0 };
  const dispatched = await deps.db.transaction(async (trx) => {
    const claimed = await claimPendingOutbox(trx, BATCH, throttledOperators(deps));
    if (claimed.length === 0) return { claimed: 0, started: 0 };
    // Indicators the claimed deposits cross commit before any run they start reads the player's risk.
    await detectHarm(deps, { claimed });
    // The claim spans tenants; from here on every query is bounded by the claimed rows' own operators.
    const operatorIds = [...new Set(claimed.map((row) => row.operator_id))];
    const automations = await automationsListeningTo(trx, operatorIds, [...new Set(claimed.map((row) => row.event))]);
    const relevant = claimed.filter((row) => automations.some((automation) => fires(automation, row)));
    let started = 0;
    const deferred = new Set<string>();
    if (relevant.length > 0) {
      const bySeq = new Map(relevant.map((row) => [row.seq, row]));
      const records = await readOutboxEvents(trx, { claimed: { seqs: relevant.map((row) => row.seq), operatorIds }, limit: relevant.length });
      const runs = (await Promise.all(records.map((record) => runsFor(deps, record.event, bySeq.get(record.seq)!, automations)))).flat();
      const seqOf = new Map(records.map((record) => [record.event.id, record.seq]));
      // An operator past its budget of run starts keeps the events it could not start pending, for a later pass.
      for (const run of runs) if (deps.starts && !deps.starts.take(run.operatorId)) deferred.add(seqOf.get(run.eventId)!);
      started = await startAll(
        deps,
        runs.filter((run) => !deferred.has(seqOf.get(run.eventId)!)),
      );
    }
    if (deps.signalWaitingRun) await signalWaitingRuns({ logger: deps.logger, signal: deps.signalWaitingRun }, trx, claimed);
    await markDispatched(
      trx,
      claimed.filter((row) => !deferred.has(row.seq)).map((row) => row.seq),
      operatorIds,
    );
    return { claimed: claimed.length, started };
  });
  return { claimed: Math.max(settled.taken, dispatched.claimed), started: dispatched.started };
}

/**
 * Dispatches every pending outbox event, batch after batch.
 *
 * @example await dispatchPendingEvents({ db, logger, keyring, startEventRun }) // { claimed: 12, started: 3 }
 */
export async function dispatchPendingEvents(deps: DispatchDeps): Promise<{ claimed: number; started: number }> {
  const total = { claimed: 0, started: 0 };
  for (;;) {
    const batch = await dispatchBatch(deps);
    total.claimed += batch.claimed;
    total.started += batch.started;
    if (batch.claimed < BATCH) return total;
  }
}
