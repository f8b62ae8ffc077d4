import type { Logger } from 'pino';
import type { Db } from '../db/knex';
import { admitLaneKey, laneKeysOf, releaseLaneKeys, type LaneScope } from '../db/queries/laneKeys';
import { OverShareError } from './overShare';

/** Live run-control keys (lanes) one automation may have: past it, a trigger for a new key waits in the outbox. */
export const LANE_KEYS_PER_AUTOMATION = 500;
/** An automation at its cap looks for closed lanes at most this often… */
const PRUNE_EVERY_MS = 2_000;
/** …and, after each look that found none, twice as long, up to this. */
const PRUNE_AT_MOST_EVERY_MS = 30_000;
/** Lanes one look describes, at most: oldest first, then on from where the last look stopped. */
const DESCRIBES_PER_PRUNE = 64;
/** Lanes described at once while looking for closed ones. */
const DESCRIBE_CONCURRENCY = 16;

/**
 * An automation has as many live run-control keys as it may: the trigger for a new key is not handed to a lane, and its
 * event — with its operator's later ones, which are dispatched in order — waits in the outbox until a lane ends. Not a
 * fault, and never the end of an event.
 */
export class LaneCapError extends OverShareError {
  constructor(
    operatorId: string,
    readonly automationId: string,
    cap: number,
  ) {
    super(operatorId);
    this.name = 'LaneCapError';
    this.message = `the automation has its most live run-control keys (${cap}) for now`;
  }
}

export interface LaneKeyDeps {
  db: Db;
  logger: Logger;
  /** Whether the lane workflow with this id is running (temporal/keyedRuns.ts `laneRunning`). */
  laneRunning: (laneId: string) => Promise<boolean>;
  /** `LANE_KEYS_PER_AUTOMATION`. */
  cap?: number;
  now?: () => number;
}

/** Where an automation's looks for closed lanes stand. */
interface Pruning {
  at: number;
  everyMs: number;
  offset: number;
}

/**
 * The cap on live run-control keys per automation (docs/workflows.md "Run control", "Live keys"). Each lane the
 * dispatcher hands a trigger to is counted in `automation_lane_keys`; a key already counted is always admitted (its lane
 * runs, or starts again). A lane that ends stops counting itself (workflows/automationLane.ts, `releaseLaneKey`), so
 * 2,000 keys at once make at most the cap's lanes, and the rest start as lanes end — pushed back, never dropped.
 *
 * A lane that ended without doing so (terminated by hand, or its last step failed) is found by describing counted
 * lanes in Temporal, at most {@link DESCRIBES_PER_PRUNE} a look and a look every 2 s while the automation is at its cap,
 * backing off to one every 30 s while looks find nothing: a cap full of live lanes (a long debounce) must not turn
 * into hundreds of describes a second on the Temporal server every tenant shares.
 */
export class LaneKeyCap {
  readonly cap: number;
  private readonly pruning = new Map<string, Pruning>();
  private readonly now: () => number;

  constructor(private readonly deps: LaneKeyDeps) {
    this.cap = deps.cap ?? LANE_KEYS_PER_AUTOMATION;
    this.now = deps.now ?? Date.now;
  }

  /** Counts the lane and answers true, or answers false when the automation has its most live keys. */
  async admit(scope: LaneScope, laneId: string): Promise<boolean> {
    if ((await admitLaneKey(this.deps.db, scope, laneId, this.cap)) !== 'full') return true;
    if ((await this.prune(scope)) === 0) return false;
    return (await admitLaneKey(this.deps.db, scope, laneId, this.cap)) !== 'full';
  }

  /** Stops counting closed lanes among the next {@link DESCRIBES_PER_PRUNE} counted, when the automation's look is due. */
  private async prune(scope: LaneScope): Promise<number> {
    const at = `${scope.operatorId}:${scope.automationId}`;
    const now = this.now();
    const last = this.pruning.get(at);
    if (last && now - last.at < last.everyMs) return 0;
    const offset = last?.offset ?? 0;
    const laneIds = await laneKeysOf(this.deps.db, scope, DESCRIBES_PER_PRUNE, offset);
    const closed: string[] = [];
    for (let start = 0; start < laneIds.length; start += DESCRIBE_CONCURRENCY) {
      const chunk = laneIds.slice(start, start + DESCRIBE_CONCURRENCY);
      const running = await Promise.all(chunk.map((laneId) => this.deps.laneRunning(laneId)));
      chunk.forEach((laneId, index) => {
        if (!running[index]) closed.push(laneId);
      });
    }
    const released = await releaseLaneKeys(this.deps.db, scope, closed);
    const everyMs = released > 0 ? PRUNE_EVERY_MS : Math.min(PRUNE_AT_MOST_EVERY_MS, (last?.everyMs ?? PRUNE_EVERY_MS / 2) * 2);
    const nextOffset = laneIds.length < DESCRIBES_PER_PRUNE ? 0 : offset + laneIds.length - released;
    this.pruning.delete(at);
    this.pruning.set(at, { at: now, everyMs, offset: nextOffset });
    if (this.pruning.size > 10_000) this.pruning.delete(this.pruning.keys().next().value!);
    if (released === 0)
      this.deps.logger.info({ operatorId: scope.operatorId, automationId: scope.automationId, cap: this.cap }, 'run-control keys at their cap; new keys wait');
    return released;
  }
}
