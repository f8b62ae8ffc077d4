import { TokenBuckets } from '../core/tokenBuckets';

/** The run queues' backlog (interactive, waiting) the admission aims under: above it, the platform is not keeping up. */
export const TARGET_BACKLOG_MS = 200;
/** How long an operator counts as backlogged after a start was refused to it. */
const BACKLOGGED_MS = 2_000;
const MIN_RATE = 5;
/** On a backlog, the admitted rate falls to this share of what was admitted meanwhile. */
const DECREASE = 0.75;
/** While starts wait and the backlog is short, the rate grows by this share each look. */
const INCREASE = 0.1;
/** A look judges the start delays (`noteStartDelay`) only when it heard at least this many. */
const MIN_DELAYS = 3;
/** The most start delays a look keeps: enough for its 90th percentile. */
const MAX_DELAYS = 1_000;
/** Looks whose median start delay make the floor: five minutes of them. */
const FLOOR_LOOKS = 300;
/** A look's 90th-percentile start delay over this many times the floor (and {@link DELAY_SLACK_MS} over it) is congested. */
const DELAY_FACTOR = 2;
const DELAY_SLACK_MS = 25;
/** The widest gap between one operator's paced lane starts: a share under one a second still starts one a second. */
const MAX_GAP_MS = 1_000;

/**
 * Event-run starts (and wake-ups) as the platform can run them, shared so a light tenant never waits behind a heavy
 * one. Two budgets must both allow a start: the operator's own (`EVENT_RUNS_PER_SECOND`, burst `EVENT_RUNS_BURST`,
 * a ceiling whatever the load) and the platform's — a rate that follows Temporal's run queues and the runs'
 * start delays (`observe`, once a second): cut to three quarters of what was admitted when tasks wait longer than
 * {@link TARGET_BACKLOG_MS} or runs wait long for their first step, grown a tenth at a time while starts wait and
 * neither does. The platform's bucket holds half a second of that rate.
 *
 * The share: an operator whose start was refused within the last two seconds is *backlogged* and takes only from its
 * credit, the platform's spare starts dealt out evenly among the backlogged; any other takes from the platform's
 * bucket, into a debt of one second if need be. So an operator starting a few runs (a bystander) is served at once,
 * and the backlogged ones share evenly what it leaves. An operator with few runs in flight (`light`, a quarter of its
 * in-flight cap: worker/operatorDispatch.ts) is served whole from its own budget even when the platform's bucket is
 * in debt — max-min fairness: a demand far below any share is never cut to one; without it, a 5/s bystander beside a
 * burst, once the rate fell to its floor of 5/s, was refused, counted backlogged and held to half the floor, and its
 * events waited 15 s at p50 for their pass (bench:dispatch). While only one operator asks for starts, only its own budget
 * applies: there is nobody to protect, and holding it back would only move its queue from Temporal to the outbox.
 * Nothing is dropped: a refused start stays in the outbox, in order, and is tried again after `waitMs`.
 */
export class StartAdmission {
  readonly burst: number;
  readonly perSecond: number;
  private readonly own: TokenBuckets;
  private rate: number;
  private tokens: number;
  private at: number;
  private admitted = 0;
  private refusedSinceLook = false;
  private readonly refusedAt = new Map<string, number>();
  /** When each operator last asked for a start: the share applies only while two or more do. */
  private readonly seenAt = new Map<string, number>();
  /** The backlogged operators' credit: the platform's spare starts, dealt out evenly. */
  private readonly credits = new Map<string, number>();
  /**
   * What light operators together may still take whole: refilled at `maxRate`, a second of it at most. Past it a
   * light operator shares like any other, so a thousand tenants of a few runs each cannot start more together than
   * the platform is ever configured for.
   */
  private lightTokens: number;
  /** Starts each operator took from the platform's bucket since it was last backlogged: its share of a debt. */
  private readonly rushes = new Map<string, number>();
  /** When each paced operator's next lane start may go (`pace`). */
  private readonly pacedAt = new Map<string, number>();
  /** Start delays heard since the last look, ms. */
  private delays: number[] = [];
  /** The median start delay of each of the last {@link FLOOR_LOOKS} looks that heard enough: their lowest is the floor. */
  private readonly medians: number[] = [];

  private readonly maxRate: number;
  private readonly now: () => number;

  /** `maxRate` caps the platform's rate (20 operators' worth), `initialRate` is where it starts (4 operators' worth). */
  constructor(perSecond: number, burst: number, options: { maxRate?: number; initialRate?: number; now?: () => number } = {}) {
    this.perSecond = perSecond;
    this.burst = burst;
    this.maxRate = options.maxRate ?? perSecond * 20;
    this.now = options.now ?? (() => performance.now());
    this.own = new TokenBuckets(perSecond, burst, this.now);
    this.rate = Math.min(this.maxRate, options.initialRate ?? perSecond * 4);
    this.tokens = this.capacity();
    this.lightTokens = this.maxRate;
    this.at = this.now();
  }

  /** The platform's admitted starts per second now. */
  get admittedRate(): number {
    return this.rate;
  }

  /**
   * Takes `count` starts for the operator when both budgets allow them; false (nothing taken) otherwise. A `light`
   * operator (few runs in flight: its demand is far below any share) is held to its own budget only; its starts still
   * use the platform's, so the backlogged share what it leaves.
   */
  take(operatorId: string, count = 1, light = false): boolean {
    this.refill();
    const alone = this.alone(operatorId);
    if (alone || this.servedWhole(light, count)) {
      if (!this.own.take(operatorId, count)) return false;
      this.admitted += count;
      if (!alone) this.useForLight(operatorId, count);
      return true;
    }
    const credit = this.credits.get(operatorId);
    const allowed = credit === undefined ? this.tokens > -this.rate : credit > 0;
    if (!allowed || !this.own.take(operatorId, count)) {
      this.refuse(operatorId);
      return false;
    }
    if (credit === undefined) {
      this.tokens -= count;
      this.rushes.set(operatorId, (this.rushes.get(operatorId) ?? 0) + count);
    } else this.credits.set(operatorId, credit - count);
    this.admitted += count;
    return true;
  }

  /**
   * How long until the operator may take `count` starts: a backlogged one until its credit holds them (or a second of
   * its share, when `count` is more), any other until the platform's bucket is above its debt limit.
   */
  waitMs(operatorId: string, count = 0, light = false): number {
    this.refill();
    if (this.alone(operatorId) || this.servedWhole(light, count)) return this.own.waitMs(operatorId, count);
    const credit = this.credits.get(operatorId);
    const share = credit === undefined ? this.rate : this.rate / this.credits.size;
    const missing = credit === undefined ? (this.tokens > -this.rate ? 0 : -this.rate - this.tokens + 1) : Math.min(count, this.creditCap()) - credit;
    const platform = missing <= 0 ? 0 : Math.ceil((missing / share) * 1000);
    return Math.max(platform, this.own.waitMs(operatorId, count));
  }

  /**
   * How far apart the operator's starts of run-control lanes go: 0 while it is alone or served whole, else a second
   * over its share of the platform's rate (at most {@link MAX_GAP_MS}). A lane's start and first task cost the
   * Temporal server and the worker's workflow thread more than a run's, and a second's share of them started at once
   * held every other tenant's starts behind them (bench:dispatch, 2,000 run-control keys: the bystander's p95 3–4× its
   * p95 alone; spaced, 1.1×). Nothing is refused by it: the lanes just go one after another.
   */
  laneGapMs(operatorId: string, light = false): number {
    this.refill();
    if (this.alone(operatorId) || this.servedWhole(light, 0)) {
      this.pacedAt.delete(operatorId);
      return 0;
    }
    const credit = this.credits.get(operatorId);
    const share = credit === undefined ? this.rate : this.rate / this.credits.size;
    return Math.min(MAX_GAP_MS, 1000 / share);
  }

  /** A pass stopped at its paced lanes: starts wait, as when one is refused, so the rate may grow (`observe`). */
  waited(): void {
    this.refusedSinceLook = true;
  }

  /** Takes the operator's next place `gapMs` after its last paced lane start: how long until it comes, in ms. */
  pace(operatorId: string, gapMs: number): number {
    if (gapMs <= 0) return 0;
    const now = this.now();
    const at = Math.max(now, this.pacedAt.get(operatorId) ?? now);
    this.pacedAt.set(operatorId, at + gapMs);
    return at - now;
  }

  /**
   * A run's first step began `ms` after Temporal started it (activities/instrumented.ts). The queue's backlog does not
   * see a worker or a server too busy to run the tasks it hands out at once; the delay does.
   */
  noteStartDelay(ms: number): void {
    if (this.delays.length < MAX_DELAYS) this.delays.push(ms);
  }

  /**
   * Adjusts the platform's rate to the backlog of the run queues (interactive, waiting), measured since the previous
   * look, and to the start delays heard since then.
   */
  observe(backlogMs: number, sinceMs: number): void {
    const admittedRate = this.admitted / Math.max(0.001, sinceMs / 1000);
    this.admitted = 0;
    const delayed = this.delayed();
    if (backlogMs > TARGET_BACKLOG_MS || delayed) this.rate = Math.max(MIN_RATE, Math.min(this.rate, admittedRate) * DECREASE);
    else if (this.refusedSinceLook) this.rate = Math.min(this.maxRate, this.rate * (1 + INCREASE) + 1);
    // Unused, the rate falls back to twice what was admitted: a burst after a quiet spell then climbs to what Temporal
    // keeps up with, a tenth a second, rather than landing a second of an old rate on it before any backlog shows.
    else this.rate = Math.min(this.rate, Math.max(MIN_RATE, admittedRate * 2));
    this.refusedSinceLook = false;
    const stale = this.now() - BACKLOGGED_MS;
    for (const [operatorId, at] of this.refusedAt) {
      if (at >= stale) continue;
      this.refusedAt.delete(operatorId);
      this.credits.delete(operatorId);
    }
    for (const operatorId of this.rushes.keys()) if (!this.seenAt.has(operatorId)) this.rushes.delete(operatorId);
    for (const [operatorId, at] of this.pacedAt) if (at < this.now()) this.pacedAt.delete(operatorId);
    // A debt is at most a second of the new rate, so a cut never leaves everyone waiting out the old one.
    this.tokens = Math.max(-this.rate, Math.min(this.tokens, this.capacity()));
    for (const [operatorId, credit] of this.credits) this.credits.set(operatorId, Math.max(-this.rate, credit));
  }

  /**
   * Whether the runs begun since the last look waited long for their first step: their 90th percentile over
   * {@link DELAY_FACTOR} times the floor, the lowest median of the last five minutes' looks (what a start costs here
   * unloaded). A single slow start in a quiet look counts: the bystander a burst delays is one of a few.
   */
  private delayed(): boolean {
    const delays = this.delays.sort((a, b) => a - b);
    this.delays = [];
    if (delays.length < MIN_DELAYS) return false;
    this.medians.push(delays[Math.floor(delays.length / 2)]!);
    if (this.medians.length > FLOOR_LOOKS) this.medians.shift();
    const floor = Math.min(...this.medians);
    return delays[Math.floor(delays.length * 0.9)]! > Math.max(DELAY_FACTOR * floor, floor + DELAY_SLACK_MS);
  }

  /**
   * Whether no other operator asked for a start within {@link BACKLOGGED_MS}: then there is nobody to share with, and
   * holding the one operator's starts back would only move its queue from Temporal to the outbox.
   */
  private alone(operatorId: string): boolean {
    const now = this.now();
    this.seenAt.set(operatorId, now);
    for (const [other, at] of this.seenAt) {
      if (now - at >= BACKLOGGED_MS) this.seenAt.delete(other);
      else if (other !== operatorId) return false;
    }
    return true;
  }

  /** Whether a light operator's `count` starts fit what light operators together may take whole now. */
  private servedWhole(light: boolean, count: number): boolean {
    return light && this.lightTokens >= count;
  }

  /** A light operator's starts come out of the platform's bucket (a debt of at most a second); it is backlogged no more. */
  private useForLight(operatorId: string, count: number): void {
    this.lightTokens -= count;
    this.tokens = Math.max(-this.rate, this.tokens - count);
    this.refusedAt.delete(operatorId);
    this.credits.delete(operatorId);
  }

  private refuse(operatorId: string): void {
    this.refusedAt.set(operatorId, this.now());
    this.refusedSinceLook = true;
    if (this.credits.has(operatorId)) return;
    // The debt its own rush left (what it took from the platform's bucket while not backlogged) becomes its own; the
    // rest stays the platform's. Handing the whole debt to each newly refused operator let three hundred of them start
    // a second of the rate each, the bucket back at zero after every refusal (startAdmission.test.ts).
    const own = Math.min(0, Math.max(this.tokens, -(this.rushes.get(operatorId) ?? 0)));
    this.rushes.delete(operatorId);
    this.credits.set(operatorId, own);
    this.tokens -= own;
  }

  /** A backlogged operator saves at most a second of its share. */
  private creditCap(): number {
    return Math.max(1, this.rate / Math.max(1, this.credits.size));
  }

  private capacity(): number {
    return Math.max(1, this.rate / 2);
  }

  /** The platform's bucket refills at its rate; what it holds in credit is dealt out evenly to the backlogged operators. */
  private refill(): void {
    const now = this.now();
    this.tokens = Math.min(this.capacity(), this.tokens + ((now - this.at) / 1000) * this.rate);
    this.lightTokens = Math.min(this.maxRate, this.lightTokens + ((now - this.at) / 1000) * this.maxRate);
    this.at = now;
    if (this.tokens <= 0 || this.credits.size === 0) return;
    const share = this.tokens / this.credits.size;
    for (const [operatorId, credit] of this.credits) this.credits.set(operatorId, Math.min(this.creditCap(), credit + share));
    this.tokens = 0;
  }
}
