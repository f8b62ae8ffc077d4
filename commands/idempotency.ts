import type { Knex } from 'knex';
import { sha256Hex } from '../core/apiKeyToken';
import { stableStringify } from '../core/stableJson';
import { claimIdempotencyKey, recordIdempotentResponse } from '../db/queries/idempotency';
import { CommandError } from './errors';

/** A write's answer as its Idempotency-Key records it: a repeat of the request is answered from it. */
export interface IdempotentWrite {
  status: number;
  body: { success: true; data: Record<string, unknown> };
}

/** The `Idempotency-Key` a write is sent under (none: `key` undefined) and the request it names. */
export interface IdempotencyScope {
  key: string | undefined;
  /** Method and path, so that one key sent to two endpoints is two different requests. */
  route: string;
  body: unknown;
}

/**
 * Runs a write under an optional idempotency key, in one transaction with the key's claim: a repeat
 * returns the original result with `action: "duplicate"` and writes nothing; the same key with a
 * different request is 409 `IDEMPOTENCY_KEY_REUSED`.
 */
export async function withIdempotency(
  trx: Knex.Transaction,
  operatorId: string,
  scope: IdempotencyScope,
  write: () => Promise<IdempotentWrite>,
): Promise<IdempotentWrite> {
  if (!scope.key) return write();
  const requestHash = sha256Hex(`${scope.route}\n${stableStringify(scope.body)}`);
  const claim = await claimIdempotencyKey(trx, operatorId, scope.key, requestHash);
  if (claim.kind === 'conflict') {
    throw new CommandError(409, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request');
  }
  if (claim.kind === 'replay') {
    const original = claim.body as IdempotentWrite['body'];
    return { status: 200, body: { success: true, data: { ...original.data, action: 'duplicate' } } };
  }
  const result = await write();
  await recordIdempotentResponse(trx, operatorId, scope.key, result.status, result.body);
  return result;
}
