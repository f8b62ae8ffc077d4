import type { Db } from '../db/knex';
import { closedRunsOf } from '../db/queries/runsInFlight';

/** Runs one organisation's events may have started or woken and not yet finished, per worker process. */
export const RUNS_IN_FLIGHT_PER_OPERATOR = 50;
/** A run in flight longer than this stops counting: it waits (a delay, an approval) rather than works. */
export const IN_FLIGHT_HOLD_MS = 10_000;
/** An operator's runs are looked up in the database at most this often. */
const LOOK_EVERY_MS = 100;

/**
 * A cap on the work one organisation has in flight (docs/workflows.md "How events reach automations", "In flight"):
 * the runs its events started and the waiting runs they woke, from the start or signal until the run's record closes
 * (or {@link IN_FLIGHT_HOLD_MS} has passed). The start admission paces starts per second; this bounds how many are
 * out at once, so a burst never fills Temporal's queue, the worker's task slots and the database pool with one
 * organisation's runs — another organisation's run waits behind at most `cap` of them. Past the cap the organisation's
 * events wait in the outbox, in order, and are dispatched as its runs finish.
 */
export class InFlightRuns {
  readonly cap: number;
  private readonly runs = new Map<string, Map<string, number>>();
  private readonly lookedAt = new Map<string, number>();

  constructor(
    private readonly db: Db,
    options: { cap?: number; holdMs?: number; now?: () => number } = {},
  ) {
    this.cap = options.cap ?? RUNS_IN_FLIGHT_PER_OPERATOR;
    this.holdMs = options.holdMs ?? IN_FLIGHT_HOLD_MS;
    this.now = options.now ?? Date.now;
  }

  private readonly holdMs: number;
  private readonly now: () => number;

  /** How many more runs the operator may start or wake now: 0 when it has its most in flight, until a quarter is free again. */
  async room(operatorId: string): Promise<number> {
    const mine = this.runs.get(operatorId);
    if (!mine || mine.size === 0) return this.cap;
    const now = this.now();
    for (const [id, at] of mine) if (now - at >= this.holdMs) mine.delete(id);
    if (mine.size > 0 && now - (this.lookedAt.get(operatorId) ?? 0) >= LOOK_EVERY_MS) {
      this.lookedAt.set(operatorId, now);
      for (const id of await closedRunsOf(this.db, operatorId, [...mine.keys()])) mine.delete(id);
    }
    if (mine.size === 0) {
      this.runs.delete(operatorId);
      this.lookedAt.delete(operatorId);
    }
    const room = this.cap - mine.size;
    // Back only once a quarter of the cap is free: a pass costs a claim and a window's filters, not worth one or two runs.
    return room >= Math.ceil(this.cap / 4) ? room : 0;
  }

  /** Counts a run started or woken for the operator, by its Temporal workflow id. */
  add(operatorId: string, temporalWorkflowId: string): void {
    let mine = this.runs.get(operatorId);
    if (!mine) this.runs.set(operatorId, (mine = new Map()));
    mine.set(temporalWorkflowId, this.now());
  }

  /** How many of the operator's runs are counted in flight now (closed ones leave at the next `room`). */
  held(operatorId: string): number {
    return this.runs.get(operatorId)?.size ?? 0;
  }

  /** Whether the operator is light: fewer runs in flight than a quarter of the cap, `reserving` more included. */
  light(operatorId: string, reserving = 0): boolean {
    return this.held(operatorId) + reserving < Math.ceil(this.cap / 4);
  }

  /** Whether nothing of the operator's is counted in flight. */
  idle(operatorId: string): boolean {
    return (this.runs.get(operatorId)?.size ?? 0) === 0;
  }
}
