import type { Logger } from 'pino';
import type { Db } from '../db/knex';
import { admitLaneKey, laneKeysOf, releaseLaneKeys, type LaneScope } from '../db/queries/laneKeys';
import { OverShareError } from './overShare';

/** Live run-control keys (lanes) one automation may have: past it, a trigger for a new key waits in the outbox. */
export const LANE_KEYS_PER_AUTOMATION = 500;
/** An automation at its cap looks for closed lanes at most this often. */
const PRUNE_EVERY_MS = 2_000;
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
}

/**
 * The cap on live run-control keys per automation (docs/workflows.md "Run control", "Live keys"). Each lane the
 * dispatcher hands a trigger to is counted in `automation_lane_keys`; a key already counted is always admitted (its lane
 * runs, or starts again). At the cap, the automation's counted lanes are described in Temporal, oldest first, and those
 * that have closed stop counting; until one has, a new key is refused. So 2,000 keys at once make at most the cap's
 * lanes, and the rest start as lanes end — pushed back, never dropped.
 */
export class LaneKeyCap {
  readonly cap: number;
  private readonly prunedAt = new Map<string, number>();

  constructor(private readonly deps: LaneKeyDeps) {
    this.cap = deps.cap ?? LANE_KEYS_PER_AUTOMATION;
  }

  /** Counts the lane and answers true, or answers false when the automation has its most live keys. */
  async admit(scope: LaneScope, laneId: string): Promise<boolean> {
    if ((await admitLaneKey(this.deps.db, scope, laneId, this.cap)) !== 'full') return true;
    if ((await this.prune(scope)) === 0) return false;
    return (await admitLaneKey(this.deps.db, scope, laneId, this.cap)) !== 'full';
  }

  /** Stops counting the automation's closed lanes, oldest first, until a tenth of the cap is free; at most every 2 s. */
  private async prune(scope: LaneScope): Promise<number> {
    const at = `${scope.operatorId}:${scope.automationId}`;
    const now = Date.now();
    if (now - (this.prunedAt.get(at) ?? 0) < PRUNE_EVERY_MS) return 0;
    this.prunedAt.set(at, now);
    if (this.prunedAt.size > 10_000) this.prunedAt.delete(this.prunedAt.keys().next().value!);
    const enough = Math.max(1, Math.ceil(this.cap / 10));
    const laneIds = await laneKeysOf(this.deps.db, scope, this.cap);
    const closed: string[] = [];
    for (let start = 0; start < laneIds.length && closed.length < enough; start += DESCRIBE_CONCURRENCY) {
      const chunk = laneIds.slice(start, start + DESCRIBE_CONCURRENCY);
      const running = await Promise.all(chunk.map((laneId) => this.deps.laneRunning(laneId)));
      chunk.forEach((laneId, index) => {
        if (!running[index]) closed.push(laneId);
      });
    }
    const released = await releaseLaneKeys(this.deps.db, scope, closed);
    if (released === 0)
      this.deps.logger.info({ operatorId: scope.operatorId, automationId: scope.automationId, cap: this.cap }, 'run-control keys at their cap; new keys wait');
    return released;
  }
}
