import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitClass, RateLimitRule } from '../core/config';
import { hotQuery, type HotStatement } from '../db/hot';
import type { Db } from '../db/knex';

export interface RateLimitDecision {
  allowed: boolean;
  retryAfterSeconds: number;
}

/**
 * Takes `$2` points of the counter `$1` in its current window of `$3` milliseconds, opening a new window when the
 * last one has ended; answers the window's total after this take and when it ends, on the database's clock
 * so that API instances with drifting clocks agree.
 */
const TAKE_POINTS: HotStatement = {
  name: 'rate-limit-take-v2',
  text: `WITH clock AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS now)
         INSERT INTO rate_limits AS r (key, points, expire)
         SELECT $1, $2, clock.now + $3::bigint FROM clock
         ON CONFLICT (key) DO UPDATE SET
           points = CASE WHEN r.expire <= (SELECT now FROM clock) THEN excluded.points ELSE r.points + excluded.points END,
           expire = CASE WHEN r.expire <= (SELECT now FROM clock) THEN excluded.expire ELSE r.expire END
         RETURNING points, expire, (SELECT now FROM clock) AS now`,
};

interface Lease {
  /** Points this instance may still hand out in the window, without asking the database. */
  remaining: number;
  /** When the window ends, on this process's clock. */
  endsAt: number;
  /** The window's points were all taken (by any instance): refuse until it ends. */
  exhausted: boolean;
  taking: Promise<void> | null;
}

/**
 * Named rate-limit classes counted per subject (operator, user or client address) per window (a minute, an hour for
 * invites), shared by every API
 * instance through PostgreSQL (`rate_limits`) without a database write per request: an instance takes the
 * window's points in leases (a hundredth of the limit, at least one) and hands them out from memory. The
 * database grants each lease only what is left of the limit, so all instances together never allow more than
 * the limit in a window; a lease left unused when the window ends is lost, so with N instances up to N
 * hundredths of a limit may go unserved. Limits of at most 100 take one point at a time and are exact. Once a
 * window is spent, the instance refuses from memory until it ends. Should the database fail, an in-memory
 * limiter of the same size stands in.
 */
export class RateLimits {
  private readonly leases = new Map<string, Lease>();
  private readonly fallback = new Map<RateLimitClass, RateLimiterMemory>();

  constructor(
    private readonly db: Db,
    private readonly rules: Record<RateLimitClass, RateLimitRule>,
    /** Told of every refusal (the metrics' refusal counter). */
    private readonly onRefusal?: (name: RateLimitClass) => void,
  ) {
    for (const [name, rule] of Object.entries(rules) as Array<[RateLimitClass, RateLimitRule]>) {
      this.fallback.set(name, new RateLimiterMemory({ keyPrefix: name, points: rule.points, duration: rule.windowSeconds }));
    }
  }

  /** Counts one request of `name` for `subject` (an operator id, a user id or a client address). */
  async consume(name: RateLimitClass, subject: string): Promise<RateLimitDecision> {
    const rule = this.rules[name];
    if (rule === undefined) throw new Error(`unknown rate-limit class ${name}`);
    const key = `${name}:${subject}`;
    for (;;) {
      const lease = this.leaseOf(key);
      if (Date.now() < lease.endsAt) {
        if (lease.remaining > 0) {
          lease.remaining -= 1;
          return { allowed: true, retryAfterSeconds: 0 };
        }
        if (lease.exhausted) {
          this.onRefusal?.(name);
          return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((lease.endsAt - Date.now()) / 1000)) };
        }
      }
      if (!lease.taking) {
        lease.taking = this.take(key, rule, lease).finally(() => {
          lease.taking = null;
        });
      }
      try {
        await lease.taking;
      } catch {
        return this.consumeInMemory(name, subject);
      }
    }
  }

  private leaseOf(key: string): Lease {
    let lease = this.leases.get(key);
    if (!lease) {
      if (this.leases.size >= 10_000) this.forgetEndedWindows();
      lease = { remaining: 0, endsAt: 0, exhausted: false, taking: null };
      this.leases.set(key, lease);
    }
    return lease;
  }

  private async take(key: string, rule: RateLimitRule, lease: Lease): Promise<void> {
    const size = Math.max(1, Math.floor(rule.points / 100));
    const [row] = await hotQuery<{ points: number; expire: string; now: string }>(this.db, TAKE_POINTS, [key, size, rule.windowSeconds * 1000]);
    if (!row) throw new Error('rate limit take returned no row');
    const granted = Math.max(0, Math.min(size, rule.points - (row.points - size)));
    lease.endsAt = Date.now() + (Number(row.expire) - Number(row.now));
    lease.remaining = granted;
    lease.exhausted = granted < size;
  }

  private async consumeInMemory(name: RateLimitClass, subject: string): Promise<RateLimitDecision> {
    try {
      await this.fallback.get(name)!.consume(subject);
      return { allowed: true, retryAfterSeconds: 0 };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        this.onRefusal?.(name);
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
      }
      throw rejection;
    }
  }

  private forgetEndedWindows(): void {
    const now = Date.now();
    for (const [key, lease] of this.leases) if (lease.endsAt <= now && !lease.taking) this.leases.delete(key);
  }
}
