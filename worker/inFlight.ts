import type { Db } from '../db/knex';
import { settledRunsOf } from '../db/queries/runsInFlight';

/** Runs one organisation's events may have started or woken and not yet finished, per worker process. */
export const RUNS_IN_FLIGHT_PER_OPERATOR = 50;
/**
 * Runs in flight per worker process for an organisation with a backlog ({@link BACKLOG_EVENTS}) while another
 * organisation has started or woken a run within {@link CONTENDED_WINDOW_MS}: the share that keeps a burst from
 * queueing in front of everyone else's runs.
 */
export const RUNS_IN_FLIGHT_CONTENDED = 2;
/**
 * Events one dispatch pass must find pending for its organisation to count as backlogged: a tenant keeping up claims a
 * few per pass (20 events/s over passes ~100 ms apart: about 2), a burst claims a batch.
 */
export const BACKLOG_EVENTS = 20;
/** How recently another organisation must have started or woken a run for the contended cap to apply. */
export const CONTENDED_WINDOW_MS = 2_000;
/**
 * For an organisation with a backlog to keep the whole cap, every other active organisation's oldest pending event
 * must have waited at least this many times as long as its own: the one far behind is held, the one just behind is not.
 */
export const FAR_BEHIND = 2;
/**
 * A run in flight longer than this stops counting: it waits rather than works. A run started by an event stops sooner
 * once it records a wait (a delay over a minute, a `wait_for_event`, an approval: `settledRunsOf`).
 */
export const IN_FLIGHT_HOLD_MS = 10_000;
/**
 * A backlog no dispatch pass has confirmed for this long is forgotten: the organisation was deleted or its events
 * went, and the worker would otherwise keep its id for good. A backlogged organisation's passes come far more often
 * (its runs leave the count within {@link IN_FLIGHT_HOLD_MS}), and its next pass notes the backlog again.
 */
export const BACKLOG_FORGET_MS = 60_000;
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
  readonly contendedCap: number;
  private readonly runs = new Map<string, Map<string, number>>();
  /** Runs counted at their start (not woken), which leave the count once asleep in a recorded wait. */
  private readonly parkable = new Set<string>();
  private readonly lookedAt = new Map<string, number>();
  /** When each organisation last started or woke a run, kept for {@link CONTENDED_WINDOW_MS}. */
  private readonly lastStarted = new Map<string, number>();
  /**
   * Organisations whose last dispatch pass found a backlog ({@link BACKLOG_EVENTS} or more events pending): when, and
   * since when their oldest pending event has waited.
   */
  private readonly backlogged = new Map<string, { at: number; oldest: number }>();

  constructor(
    private readonly db: Db,
    options: { cap?: number; contendedCap?: number; holdMs?: number; now?: () => number } = {},
  ) {
    this.cap = options.cap ?? RUNS_IN_FLIGHT_PER_OPERATOR;
    this.contendedCap = Math.min(this.cap, options.contendedCap ?? RUNS_IN_FLIGHT_CONTENDED);
    this.holdMs = options.holdMs ?? IN_FLIGHT_HOLD_MS;
    this.now = options.now ?? Date.now;
  }

  private readonly holdMs: number;
  private readonly now: () => number;

  /**
   * The operator's cap now: {@link contendedCap} while it has a backlog and another organisation has started or woken
   * a run lately, else the whole {@link cap}. Alone, a burst keeps its pace; an organisation keeping up with its events
   * (a few pending at each pass) is never held to the small share, whatever its rate; a backlogged one beside others
   * has few runs in Temporal's queue and the worker's slots, so another's run waits behind a handful, not fifty
   * (docs/workflows.md "Runs in flight per organisation" has the measurements). One exception: an organisation whose
   * oldest pending event has waited at most 1/{@link FAR_BEHIND} as long as every other active organisation's keeps
   * the whole cap. Everyone active is then further behind than it; holding it protects none of them, and held, its own
   * backlog would only grow until it was as far behind as the rest.
   */
  capOf(operatorId: string): number {
    const now = this.now();
    for (const [other, { at }] of this.backlogged) if (now - at >= BACKLOG_FORGET_MS) this.backlogged.delete(other);
    const mine = this.backlogged.get(operatorId);
    if (!this.othersActive(operatorId) || !mine) return this.cap;
    const behind = now - mine.oldest;
    for (const other of this.lastStarted.keys()) {
      if (other === operatorId) continue;
      const theirs = this.backlogged.get(other);
      const theirBehind = theirs ? now - theirs.oldest : 0;
      if (theirBehind <= behind || theirBehind < FAR_BEHIND * behind) return this.contendedCap;
    }
    return this.cap;
  }

  /** Whether an organisation other than this one has started or woken a run within {@link CONTENDED_WINDOW_MS}. */
  othersActive(operatorId: string): boolean {
    const now = this.now();
    let active = false;
    for (const [other, at] of this.lastStarted) {
      if (now - at >= CONTENDED_WINDOW_MS) this.lastStarted.delete(other);
      else if (other !== operatorId) active = true;
    }
    return active;
  }

  /**
   * Records what the operator's dispatch pass found pending, and since when the oldest of it has waited (epoch ms; now
   * when not told): a backlog makes it the one held to the contended cap. True when the operator has just become
   * backlogged (its room may have shrunk).
   */
  notePending(operatorId: string, pending: number, oldestAt?: number): boolean {
    if (pending < BACKLOG_EVENTS) {
      this.backlogged.delete(operatorId);
      return false;
    }
    const fresh = !this.backlogged.has(operatorId);
    const now = this.now();
    this.backlogged.set(operatorId, { at: now, oldest: Math.min(oldestAt ?? now, now) });
    return fresh;
  }

  /** How many more runs the operator may start or wake now: 0 when it has its most in flight, until a quarter is free again. */
  async room(operatorId: string): Promise<number> {
    const cap = this.capOf(operatorId);
    const mine = this.runs.get(operatorId);
    if (!mine || mine.size === 0) return cap;
    const now = this.now();
    for (const [id, at] of mine) if (now - at >= this.holdMs) this.drop(mine, id);
    if (mine.size > 0 && now - (this.lookedAt.get(operatorId) ?? 0) >= LOOK_EVERY_MS) {
      this.lookedAt.set(operatorId, now);
      for (const id of await settledRunsOf(this.db, operatorId, [...mine.keys()], this.parkable)) this.drop(mine, id);
    }
    if (mine.size === 0) {
      this.runs.delete(operatorId);
      this.lookedAt.delete(operatorId);
    }
    const room = cap - mine.size;
    // Back only once a quarter of the cap is free: a pass costs a claim and a window's filters, not worth one or two runs.
    return room >= Math.ceil(cap / 4) ? room : 0;
  }

  private drop(mine: Map<string, number>, temporalWorkflowId: string): void {
    mine.delete(temporalWorkflowId);
    this.parkable.delete(temporalWorkflowId);
  }

  /**
   * Counts a run started (`woken` false) or woken for the operator, by its Temporal workflow id; `inMs` later when its
   * start is placed ahead (worker/lanePlaces.ts): counted meanwhile, and held from then.
   */
  add(operatorId: string, temporalWorkflowId: string, woken = false, inMs = 0): void {
    let mine = this.runs.get(operatorId);
    if (!mine) this.runs.set(operatorId, (mine = new Map()));
    mine.set(temporalWorkflowId, this.now() + inMs);
    if (woken) this.parkable.delete(temporalWorkflowId);
    else this.parkable.add(temporalWorkflowId);
    this.lastStarted.set(operatorId, this.now());
  }

  /** How many of the operator's runs are counted in flight now (closed ones leave at the next `room`). */
  held(operatorId: string): number {
    return this.runs.get(operatorId)?.size ?? 0;
  }

  /**
   * Whether the operator is light: no backlog, and fewer runs in flight than a quarter of the cap, `reserving` more
   * included. A backlog alone makes it heavy: held to the contended cap, its runs never reach a quarter of the whole
   * one, and its lanes count nothing in flight, so without it a burst was served whole, past the platform's rate.
   */
  light(operatorId: string, reserving = 0): boolean {
    if (this.backlogged.has(operatorId)) return false;
    return this.held(operatorId) + reserving < Math.ceil(this.cap / 4);
  }

  /** Whether nothing of the operator's is counted in flight. */
  idle(operatorId: string): boolean {
    return (this.runs.get(operatorId)?.size ?? 0) === 0;
  }
}
