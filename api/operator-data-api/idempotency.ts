import type { Knex } from 'knex';
import type { Context } from 'koa';
import { sha256Hex } from '../../core/apiKeyToken';
import { stableStringify } from '../../core/stableJson';
import { claimIdempotencyKey, recordIdempotentResponse } from '../../db/queries/idempotency';
import { AppError } from '../errors';
import { IDEMPOTENCY_KEY } from './schema';

export interface IdempotentWrite {
  status: number;
  body: { success: true; data: Record<string, unknown> };
}

/** The `Idempotency-Key` header, validated; undefined when absent. */
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

/**
 * Runs a write under an optional idempotency key, in one transaction with the key's claim: a repeat
 * returns the original result with `action: "duplicate"` and writes nothing; the same key with a
 * different request is 409 `IDEMPOTENCY_KEY_REUSED`.
 */
export async function withIdempotency(
  trx: Knex.Transaction,
  scope: { operatorId: string; key: string | undefined; route: string; body: unknown },
  write: () => Promise<IdempotentWrite>,
): Promise<IdempotentWrite> {
  if (!scope.key) return write();
  const requestHash = sha256Hex(`${scope.route}\n${stableStringify(scope.body)}`);
  const claim = await claimIdempotencyKey(trx, scope.operatorId, scope.key, requestHash);
  if (claim.kind === 'conflict') {
    throw new AppError(409, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request');
  }
  if (claim.kind === 'replay') {
    const original = claim.body as IdempotentWrite['body'];
    return { status: 200, body: { success: true, data: { ...original.data, action: 'duplicate' } } };
  }
  const result = await write();
  await recordIdempotentResponse(trx, scope.operatorId, scope.key, result.status, result.body);
  return result;
}
