import {
  allHandlersFinished,
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  defineUpdate,
  getExternalWorkflowHandle,
  metricMeter,
  ParentClosePolicy,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import {
  RUN_CONTROL_LIMITS,
  type LaneCounts,
  type LaneInput,
  type LaneState,
  type LaneTrigger,
  type RunControl,
  type SkipReason,
} from '../core/automations/runControl';
import type { LaneSkip, LaneSkipReason } from '../core/automations/laneSkips';
import type { Activities } from '../activities';
import { automationRunV2Workflow, automationRunWorkflow } from './automationRun';

const { recordLaneSkips } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds', maximumAttempts: 3 },
});
/** Local: short work in the worker (a statement, a place in memory), with no activity task for the server to hand out. */
const { releaseLaneKey, placeLaneRun } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '2 seconds', maximumAttempts: 5 },
});

/** A trigger for the lane's key (sent with signal-with-start by temporal/keyedRuns.ts). */
export const laneTriggerSignal = defineSignal<[LaneTrigger]>('laneTrigger');

/**
 * Ends the key's waiting triggers (queued, debounced) and answers the Temporal ids of its running runs, which the caller
 * cancels through temporal/automationRuns.ts `cancelAutomationRun` (each run closes its record as `cancelled`). A run
 * whose start is still in flight is cancelled by the lane itself once it has started.
 */
export const cancelLaneRunsUpdate = defineUpdate<{ runWorkflowIds: string[] }>('cancelLaneRuns');

/** What the lane runs and holds, and what it did (`LaneState`). */
export const laneStateQuery = defineQuery<LaneState>('laneState');

/** Triggers a lane run handles before it continues as new (when no run is in flight), keeping its history short. */
const TRIGGERS_PER_RUN = 500;
/** Event ids a lane remembers, so an event dispatched again after a crash is neither started nor counted twice. */
const RECENT_EVENTS = 500;
/** Held-back triggers a lane keeps for recording (one `recordLaneSkips` at a time takes them all); beyond, `unrecorded`. */
const SKIP_BUFFER = 100;
/** How long a lane records nothing once the automation's minute was full (db/queries/triggerSkips.ts). */
const FULL_MINUTE_MS = 60_000;
/** Since this patch a lane records what it holds back as skipped triggers; histories from before record nothing. */
export const LANE_SKIP_RECORDS_PATCH = 'lane-skip-records';

interface Slot {
  started: boolean;
  cancelling: boolean;
  /** Why it was cancelled: a run cancelled before its place came is not started, and its trigger is skipped for this. */
  why?: 'replaced' | 'cancelled';
}

/**
 * What a lane type does: whether it records held-back triggers, whether it releases its key as it ends, and whether
 * the runs it releases on its own (debounce, queue) wait for their place in the organisation's share. A lane that
 * places starts its runs as `automationRunV2Workflow` (no patch marker or upsert in each run's history): no history of
 * such a lane comes from before that type.
 */
interface LaneType {
  records: boolean;
  releases: boolean;
  places: boolean;
}

/**
 * One key of one automation's run control (docs/workflows.md "Run control"): every event run of that key is started
 * here, as a child workflow under its own id (`automation-event-<automation>-<event>`, so one run per event holds),
 * abandoned on the lane's close so a lane never takes its runs down with it. A trigger goes through the debounce (the
 * last one wins after a quiet period), the throttle (a fixed window counted here) and the concurrency slots (`queue`,
 * `skip`, or `replace`: the oldest run is cancelled and the newest trigger starts once it has closed). The lane ends
 * once nothing runs, waits or is counted; it continues as new between runs every {@link TRIGGERS_PER_RUN} triggers.
 *
 * The first lane type: started by releases before 2026-12-06, asking Temporal for `lane-skip-records` (a marker and
 * a search-attribute upsert in each lane's history) and leaving its count to the dispatcher's looks.
 *
 * @example signalWithStart(automationLaneWorkflow, { workflowId: laneWorkflowId(...), signal: laneTriggerSignal, signalArgs: [trigger], args: [{ operatorId, automationId }] })
 */
export async function automationLaneWorkflow(input: LaneInput): Promise<LaneCounts> {
  return runLane(input, { records: patched(LANE_SKIP_RECORDS_PATCH), releases: false, places: false });
}

/**
 * The second lane type (started by releases of 2026-12-06, docs/workflows.md#versioning): {@link automationLaneWorkflow}'s
 * loop, recording what it holds back without asking Temporal (no history of this type comes from before that patch),
 * and ending with `releaseLaneKey`, so its automation's count of live keys (worker/laneKeys.ts) drops as it ends.
 */
export async function automationLaneV2Workflow(input: LaneInput): Promise<LaneCounts> {
  return runLane(input, { records: true, releases: true, places: false });
}

/**
 * The lane every new key starts (docs/workflows.md#versioning): {@link automationLaneV2Workflow}'s, except that a run it
 * releases on its own — a debounced trigger after its quiet period, a queued one when a slot frees — first takes its
 * place in the organisation's share of starts (the local activity `placeLaneRun`, worker/lanePlaces.ts) and waits for
 * it on a timer. A trigger started as it arrives was placed by the dispatcher that handed it over. Its runs are
 * `automationRunV2Workflow`s. A running lane of an older type keeps its type: a trigger for its key reaches it as a
 * signal.
 *
 * @example signalWithStart(automationLaneV3Workflow, { workflowId: laneWorkflowId(...), signal: laneTriggerSignal, signalArgs: [trigger], args: [{ operatorId, automationId }] })
 */
export async function automationLaneV3Workflow(input: LaneInput): Promise<LaneCounts> {
  return runLane(input, { records: true, releases: true, places: true });
}

async function runLane(input: LaneInput, type: LaneType): Promise<LaneCounts> {
  const carried = input.carried;
  let control: RunControl | null = carried?.control ?? null;
  let queued: LaneTrigger[] = [...(carried?.queued ?? [])];
  let pending = carried?.pending ?? null;
  let window = carried?.window ?? null;
  const counts: LaneCounts = { started: 0, ...carried?.counts };
  const recent = [...(carried?.recent ?? [])];
  const running = new Map<string, Slot>();
  let handled = 0;
  let changed = false;

  // Created in the workflow: the meter exists only in a workflow context (this module is imported by the client too).
  const skipped = metricMeter.createCounter(
    'platform_automation_triggers_skipped_total',
    'triggers',
    'Event triggers of a run-controlled automation that started no run, by reason (docs/workflows.md "Run control")',
  );
  const { records } = type;
  const unrecorded: LaneSkip[] = [];
  let recording = false;
  let fullUntil = 0;
  const lost = (n: number) => {
    if (n > 0) counts.unrecorded = (counts.unrecorded ?? 0) + n;
  };
  /** Counts the held-back triggers and keeps each for its record. */
  const skip = (reason: LaneSkipReason, held: LaneTrigger[], supersededBy?: string) => {
    counts[reason] = (counts[reason] ?? 0) + held.length;
    skipped.add(held.length, { reason } satisfies { reason: SkipReason });
    if (!records) return;
    for (const trigger of held) {
      if (unrecorded.length >= SKIP_BUFFER || Date.now() < fullUntil) {
        lost(1);
        continue;
      }
      const event = (trigger.run.input as { event?: unknown } | null)?.event;
      unrecorded.push({
        eventId: trigger.eventId,
        event: typeof event === 'string' ? event : '',
        nodeId: trigger.run.triggerNodeId || null,
        workflowVersion: trigger.workflowVersion,
        key: trigger.key,
        reason,
        at: Date.now(),
        control: trigger.control,
        supersededBy,
      });
    }
  };
  /** Hands the held-back triggers to `recordLaneSkips`, unless a call is already out; a failed call loses its batch. */
  const flush = () => {
    if (recording || unrecorded.length === 0) return;
    recording = true;
    const batch = unrecorded.splice(0, unrecorded.length);
    void recordLaneSkips({ operatorId: input.operatorId, automationId: input.automationId, skips: batch })
      .then(({ left }) => {
        if (left === 0) return;
        lost(left + unrecorded.length);
        unrecorded.length = 0;
        fullUntil = Date.now() + FULL_MINUTE_MS;
      })
      .catch(() => lost(batch.length))
      .finally(() => {
        recording = false;
        changed = true;
      });
  };
  /** Records every held-back trigger before the lane ends or continues as new. */
  const drained = async () => {
    for (;;) {
      flush();
      if (!recording) return;
      await condition(() => !recording);
    }
  };
  const cancel = (id: string, slot: Slot, why: Slot['why']) => {
    slot.cancelling = true;
    slot.why ??= why;
    if (slot.started)
      void getExternalWorkflowHandle(id)
        .cancel()
        .catch(() => undefined);
  };

  /** Starts the trigger's run; one the lane releases on its own (`placed`) first waits for its place, in a lane that places. */
  const start = (trigger: LaneTrigger, placed = false) => {
    const slot: Slot = { started: false, cancelling: false };
    running.set(trigger.runWorkflowId, slot);
    counts.started += 1;
    void (async () => {
      try {
        if (placed && type.places) {
          const { operatorId, automationId } = input;
          // A failed placement starts the run at once: the place paces it, and nothing must be lost for it.
          const inMs = await placeLaneRun({ operatorId, automationId, runWorkflowId: trigger.runWorkflowId }).catch(() => 0);
          if (inMs > 0) await sleep(inMs);
          if (slot.cancelling) {
            counts.started -= 1;
            return skip(slot.why ?? 'cancelled', [trigger]);
          }
        }
        const child = await startChild(type.places ? automationRunV2Workflow : automationRunWorkflow, {
          workflowId: trigger.runWorkflowId,
          args: [trigger.run],
          parentClosePolicy: ParentClosePolicy.ABANDON,
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
        });
        slot.started = true;
        if (slot.cancelling) cancel(trigger.runWorkflowId, slot, slot.why);
        await child.result();
      } catch (error) {
        // A repeated dispatch of an event whose run exists; a run's failure or cancellation is in its own record.
        if (error instanceof WorkflowExecutionAlreadyStartedError) counts.started -= 1;
      } finally {
        running.delete(trigger.runWorkflowId);
        changed = true;
      }
    })();
  };

  /** A trigger past the debounce: the throttle's window, then a slot, the queue, a skip or a replacement. */
  const release = (trigger: LaneTrigger, placed = false) => {
    const throttle = control?.throttle;
    if (throttle) {
      const now = Date.now();
      if (!window || now >= window.openedAt + throttle.period_seconds * 1000) window = { openedAt: now, admitted: 0 };
      if (window.admitted >= throttle.limit) return skip('throttled', [trigger]);
      window.admitted += 1;
    }
    const concurrency = control?.concurrency;
    if (!concurrency || (running.size < concurrency.limit && queued.length === 0)) return start(trigger, placed);
    if (concurrency.when_busy === 'skip') return skip('busy', [trigger]);
    if (concurrency.when_busy === 'queue') {
      if (queued.length >= RUN_CONTROL_LIMITS.queued) return skip('queue_full', [trigger]);
      queued.push(trigger);
      return;
    }
    queued.push(trigger);
    while (queued.length > concurrency.limit) skip('replaced', [queued.shift()!]);
    let cancelling = [...running.values()].filter((slot) => slot.cancelling).length;
    for (const [id, slot] of running) {
      if (cancelling >= queued.length) break;
      if (slot.cancelling) continue;
      cancel(id, slot, 'replaced');
      cancelling += 1;
    }
  };

  setHandler(laneTriggerSignal, (trigger) => {
    if (recent.includes(trigger.eventId) || running.has(trigger.runWorkflowId)) return;
    recent.push(trigger.eventId);
    if (recent.length > RECENT_EVENTS) recent.shift();
    control = trigger.control;
    handled += 1;
    changed = true;
    if (!control.debounce) return release(trigger);
    if (pending) skip('debounced', [pending.trigger], trigger.eventId);
    pending = { trigger, at: Date.now() + control.debounce.quiet_seconds * 1000 };
  });
  setHandler(cancelLaneRunsUpdate, () => {
    const dropped = pending ? [...queued, pending.trigger] : queued;
    if (dropped.length > 0) skip('cancelled', dropped);
    queued = [];
    pending = null;
    const runWorkflowIds: string[] = [];
    for (const [id, slot] of running) {
      slot.cancelling = true;
      slot.why ??= 'cancelled';
      if (slot.started) runWorkflowIds.push(id);
    }
    changed = true;
    return { runWorkflowIds };
  });
  setHandler(laneStateQuery, () => ({ running: [...running.keys()], queued: queued.length, pending: pending !== null, counts }));

  for (;;) {
    if (pending && Date.now() >= pending.at) {
      const { trigger } = pending;
      pending = null;
      release(trigger, true);
    }
    // Between runs, so no child is in flight (their handles cannot be carried over); a waiting queue is.
    if (running.size === 0 && (handled >= (input.triggersPerRun ?? TRIGGERS_PER_RUN) || workflowInfo().continueAsNewSuggested)) {
      await condition(allHandlersFinished);
      await drained();
      if (running.size === 0 && unrecorded.length === 0 && !recording)
        await continueAsNew<typeof automationLaneWorkflow>({ ...input, carried: { control, queued, pending, window, counts, recent } });
    }
    flush();
    const limit = control?.concurrency?.limit ?? Number.POSITIVE_INFINITY;
    while (queued.length > 0 && running.size < limit) start(queued.shift()!, true);
    const windowEnds = window && control?.throttle ? window.openedAt + control.throttle.period_seconds * 1000 : 0;
    const idle = running.size === 0 && queued.length === 0 && pending === null;
    if (idle && Date.now() >= windowEnds) {
      await condition(allHandlersFinished);
      await drained();
      const ended = () => running.size === 0 && queued.length === 0 && pending === null && unrecorded.length === 0;
      if (!ended()) continue;
      if (type.releases) {
        // Not counted from here: a trigger that arrives meanwhile keeps the lane alive one more while, over the cap at most by it.
        await releaseLaneKey({ operatorId: input.operatorId, automationId: input.automationId, laneId: workflowInfo().workflowId }).catch(() => 0);
        await condition(allHandlersFinished);
        if (!ended()) continue;
      }
      return counts;
    }
    const deadlines = [pending?.at, idle ? windowEnds : undefined].filter((at): at is number => at !== undefined && at > 0);
    changed = false;
    const timeout = deadlines.length > 0 ? Math.max(1, Math.min(...deadlines) - Date.now()) : undefined;
    await (timeout === undefined ? condition(() => changed) : condition(() => changed, timeout));
  }
}
