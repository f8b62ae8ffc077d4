import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitClass } from '../core/config';
import type { Db } from '../db/knex';

export interface RateLimitDecision {
  allowed: boolean;
  retryAfterSeconds: number;
}

/**
 * Named rate-limit classes whose counters live in PostgreSQL (table `rate_limits`), so every API
 * instance shares them. Should the database be unreachable, an in-memory limiter of the same size
 * stands in (rate-limiter-flexible's insurance limiter) rather than failing the request.
 */
export class RateLimits {
  private readonly limiters = new Map<RateLimitClass, RateLimiterPostgres>();

  constructor(db: Db, limitsPerMinute: Record<RateLimitClass, number>) {
    for (const [name, points] of Object.entries(limitsPerMinute) as Array<[RateLimitClass, number]>) {
      this.limiters.set(
        name,
        new RateLimiterPostgres({
          storeClient: db,
          storeType: 'knex',
          tableName: 'rate_limits',
          tableCreated: true,
          keyPrefix: name,
          points,
          duration: 60,
          insuranceLimiter: new RateLimiterMemory({ keyPrefix: name, points, duration: 60 }),
        }),
      );
    }
  }

  /** Counts one request of `name` for `subject` (an operator id or a client address). */
  async consume(name: RateLimitClass, subject: string): Promise<RateLimitDecision> {
    const limiter = this.limiters.get(name);
    if (!limiter) throw new Error(`unknown rate-limit class ${name}`);
    try {
      await limiter.consume(subject);
      return { allowed: true, retryAfterSeconds: 0 };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
      }
      throw rejection;
    }
  }
}
