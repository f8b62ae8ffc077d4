import type { Context } from 'koa';
import { AppError } from '../errors';
import { IDEMPOTENCY_KEY } from './schema';

/** The `Idempotency-Key` header, validated; undefined when absent. Its claim is the write's (commands/idempotency.ts). */
export function idempotencyKeyOf(ctx: Context): string | undefined {
  const header = ctx.get('idempotency-key');
  if (!header) return undefined;
  const parsed = IDEMPOTENCY_KEY.safeParse(header);
  if (!parsed.success) {
    throw new AppError(400, 'VALIDATION_FAILED', 'Idempotency-Key must be 1 to 255 characters', {
      details: [{ field: 'Idempotency-Key', message: 'must be 1 to 255 characters' }],
    });
  }
  return parsed.data;
}
