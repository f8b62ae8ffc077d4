import type { Context, Middleware } from 'koa';
import type { RateLimitClass } from '../../core/config';
import { AppError } from '../errors';
import type { RateLimits } from '../rateLimits';

/**
 * Counts the request against a rate-limit class; over the limit it answers 429 `RATE_LIMITED` with
 * `Retry-After`. The subject defaults to the authenticated operator.
 *
 * @example router.post('/entities', auth, rateLimit(limits, 'ingest:realtime'), handler)
 */
export function rateLimit(
  limits: RateLimits,
  name: RateLimitClass,
  subjectOf: (ctx: Context) => string = (ctx) => (ctx.state.auth as { operatorId: string }).operatorId,
): Middleware {
  return async (ctx, next) => {
    const decision = await limits.consume(name, subjectOf(ctx));
    if (!decision.allowed) {
      throw new AppError(429, 'RATE_LIMITED', `Rate limit exceeded for ${name}; retry after ${decision.retryAfterSeconds} s`, {
        headers: { 'Retry-After': String(decision.retryAfterSeconds) },
      });
    }
    await next();
  };
}
