/**
 * A token bucket per key (an operator): each holds up to `burst` tokens and refills at `perSecond`. Tokens may be
 * spent below zero (a debt the key then waits out); `waitMs` says how long until the bucket is back at zero. The one
 * mechanism behind the per-tenant budgets of a worker: sandbox time, large data, event-run starts.
 *
 * @example const buckets = new TokenBuckets(50, 500); if (buckets.take('op-1')) start(); else defer();
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  /** Keys a `take` was refused to, until they have a token again. */
  private readonly refused = new Set<string>();

  constructor(
    readonly perSecond: number,
    readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes `count` tokens if the bucket holds them; false (nothing taken) otherwise. */
  take(key: string, count = 1): boolean {
    const bucket = this.refill(key);
    if (bucket.tokens < count) {
      this.refused.add(key);
      return false;
    }
    bucket.tokens -= count;
    return true;
  }

  /** Spends `count` tokens whatever the bucket holds, running into debt if need be. */
  spend(key: string, count: number): void {
    this.refill(key).tokens -= count;
  }

  /** How long until the key's bucket holds `count` tokens (0 when it does now). */
  waitMs(key: string, count = 0): number {
    const missing = count - this.refill(key).tokens;
    return missing <= 0 ? 0 : Math.ceil((missing / this.perSecond) * 1000);
  }

  /** Keys refused a token that have not got one back yet. */
  exhausted(): string[] {
    for (const key of this.refused) if (this.refill(key).tokens >= 1) this.refused.delete(key);
    return [...this.refused];
  }

  private refill(key: string): { tokens: number; at: number } {
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: this.burst, at: now };
      this.buckets.set(key, bucket);
      if (this.buckets.size > 100_000) this.buckets.delete(this.buckets.keys().next().value!);
    }
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    return bucket;
  }
}
