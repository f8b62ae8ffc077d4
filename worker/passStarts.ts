import type { Keyring } from '../core/crypto';
import type { InternalEvent } from '../core/events';
import type { TriggerSkip } from '../db/queries/triggerSkips';
import { eventRunWorkflowId } from '../temporal/automationRuns';
import type { DispatchFaults } from './dispatchFaults';
import type { Listener } from './eventRouter';
import type { InFlightRuns } from './inFlight';
import { LaneCapError } from './laneKeys';
import type { ControlledEventRun, EventRuns, StartOutcome } from './runControl';
import type { StartAdmission } from './startAdmission';

/** What a pass's starts need of the dispatcher (worker/operatorDispatch.ts, `DispatchDeps`). */
export interface PassStartDeps {
  keyring: Keyring;
  runs: EventRuns;
  starts?: Pick<StartAdmission, 'laneGapMs' | 'pace'>;
  inFlight?: Pick<InFlightRuns, 'add' | 'light'>;
}

const START_CONCURRENCY = 16;
/**
 * The longest a pass spends spacing its lane starts (StartAdmission.laneGapMs): it holds one of the dispatcher's few
 * connections meanwhile, so the rest waits for the next pass.
 */
const PACED_PASS_MS = 250;

/** How far apart a pass starts its lanes, and how many it starts at most (at least one). */
export function lanePacing(deps: PassStartDeps, operatorId: string): { gapMs: number; most: number } {
  const gapMs = deps.starts?.laneGapMs(operatorId, deps.inFlight?.light(operatorId) ?? false) ?? 0;
  return { gapMs, most: gapMs > 0 ? Math.max(1, Math.floor(PACED_PASS_MS / gapMs)) : Number.POSITIVE_INFINITY };
}

/** What a pass's events came to: the runs it starts (each with its event's outbox seq) and the triggers it skips. */
export interface Routed {
  runs: Array<ControlledEventRun & { seq: string }>;
  skips: TriggerSkip[];
}

const MAX_MESSAGE = 2_000;

/** The skipped-trigger record of one automation for one event, its message sealed to that automation. */
export function skipOf(
  deps: Pick<PassStartDeps, 'keyring'>,
  listener: Pick<Listener, 'automation'>,
  event: InternalEvent,
  nodeId: string | null,
  failure: { reason: TriggerSkip['reason']; code: string; message: string },
): TriggerSkip {
  const { automation } = listener;
  return {
    operatorId: automation.operator_id,
    automationId: automation.id,
    automationVersion: automation.version,
    nodeId,
    eventId: event.id,
    event: event.event,
    reason: failure.reason,
    code: failure.code,
    sealedMessage: deps.keyring.encrypt(failure.message.slice(0, MAX_MESSAGE), `trigger-skip:${automation.operator_id}:${automation.id}`),
  };
}

/** What starting a pass's runs came to: `capped`, the first event whose new run-control key met its automation's cap. */
export interface Starts {
  started: number;
  capped?: string;
}

/**
 * Starts the runs; a `key` that failed becomes a skip. A start failing on one event's own content is a fault of that
 * event. A new key past its automation's cap ({@link LaneCapError}) is not a fault: the earliest such event is answered,
 * and the pass stops there (it and every later event wait; a start repeated next pass is refused by its Temporal id).
 */
export async function startAll(
  deps: PassStartDeps,
  faults: DispatchFaults,
  routes: Routed,
  listeners: Map<string, Listener['automation']>,
  laneGapMs: number,
): Promise<Starts> {
  let started = 0;
  let next = 0;
  let capped: bigint | undefined;
  const worker = async () => {
    while (next < routes.runs.length) {
      const { seq, ...run } = routes.runs[next++]!;
      if (capped !== undefined && BigInt(seq) > capped) continue;
      let outcome: StartOutcome;
      const place = run.runControl ? (deps.starts?.pace(run.operatorId, laneGapMs) ?? 0) : 0;
      if (place > 0) await new Promise((resolve) => setTimeout(resolve, place));
      try {
        outcome = await deps.runs.start(run);
      } catch (error) {
        if (error instanceof LaneCapError) {
          if (capped === undefined || BigInt(seq) < capped) capped = BigInt(seq);
          continue;
        }
        if (!faults.setAside(seq, error)) throw error;
        const message = `The event could not be dispatched: ${(error as Error).message}`;
        routes.skips.push(
          skipOf(deps, { automation: listeners.get(run.automationId)! }, run.input as InternalEvent, null, {
            reason: 'dispatch_failed',
            code: 'DISPATCH_FAILED',
            message,
          }),
        );
        continue;
      }
      if (outcome === 'started') {
        started += 1;
        // A trigger handed to a lane may wait there for minutes (a debounce): lanes are bounded by the live-key cap instead.
        if (!run.runControl) deps.inFlight?.add(run.operatorId, eventRunWorkflowId(run.automationId, run.eventId));
      } else if (typeof outcome === 'object')
        routes.skips.push(
          skipOf(deps, { automation: listeners.get(run.automationId)! }, run.input as InternalEvent, run.triggerNodeId ?? null, {
            reason: 'key_failed',
            ...outcome.keyFailed,
          }),
        );
    }
  };
  await Promise.all(Array.from({ length: Math.min(START_CONCURRENCY, routes.runs.length) }, worker));
  return capped === undefined ? { started } : { started, capped: String(capped) };
}
