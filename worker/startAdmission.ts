import { TokenBuckets } from '../core/tokenBuckets';

/** The interactive queue's backlog the admission aims under: above it, the platform is not keeping up. */
export const TARGET_BACKLOG_MS = 200;
/** How long an operator counts as backlogged after a start was refused to it. */
const BACKLOGGED_MS = 2_000;
const MIN_RATE = 5;
/** On a backlog, the admitted rate falls to this share of what was admitted meanwhile. */
const DECREASE = 0.75;
/** While starts wait and the backlog is short, the rate grows by this share each look. */
const INCREASE = 0.1;

/**
 * Event-run starts (and wake-ups) as the platform can run them, shared so a light tenant never waits behind a heavy
 * one. Two budgets must both allow a start: the operator's own (`EVENT_RUNS_PER_SECOND`, burst `EVENT_RUNS_BURST`,
 * a ceiling whatever the load) and the platform's — a rate that follows Temporal's interactive queue (`observe`, once
 * a second): cut to three quarters of what was admitted when tasks wait longer than {@link TARGET_BACKLOG_MS}, grown
 * a tenth at a time while starts wait and the queue is short. The platform's bucket holds half a second of that rate.
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

  /** Adjusts the platform's rate to the backlog of the interactive queue, measured since the previous look. */
  observe(backlogMs: number, sinceMs: number): void {
    const admittedRate = this.admitted / Math.max(0.001, sinceMs / 1000);
    this.admitted = 0;
    if (backlogMs > TARGET_BACKLOG_MS) this.rate = Math.max(MIN_RATE, Math.min(this.rate, admittedRate) * DECREASE);
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
    // A debt is at most a second of the new rate, so a cut never leaves everyone waiting out the old one.
    this.tokens = Math.max(-this.rate, Math.min(this.tokens, this.capacity()));
    for (const [operatorId, credit] of this.credits) this.credits.set(operatorId, Math.max(-this.rate, credit));
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
