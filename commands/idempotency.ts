import type { Knex } from 'knex';
import { stableSha256Hex } from '../core/stableJson';
import { claimIdempotencyKey, recordIdempotentResponse } from '../db/queries/idempotency';
import { CommandError } from './errors';
import type { WriteResult } from './results';

/** The `Idempotency-Key` a write is sent under (none: `key` undefined) and the request it names. */
export interface IdempotencyScope {
  key: string | undefined;
  /** Method and path, so that one key sent to two endpoints is two different requests. */
  route: string;
  body: unknown;
}

/**
 * The record a stored answer names. A row written before answers were stored in business terms holds the body the
 * API answered, `{ success: true, data }` (an entity's `data` with its `action`); rows now hold `{ data }`. Both read as the same
 * record, the old `action` dropped since a repeat's outcome is `duplicate` whatever the first one was.
 */
function storedData<T>(stored: Record<string, unknown>): T {
  const data = (stored.data ?? {}) as Record<string, unknown>;
  if (stored.success !== true || !('action' in data)) return data as T;
  const { action: _firstOutcome, ...record } = data;
  return record as T;
}

/**
 * Runs a write under an optional idempotency key, in one transaction with the key's claim: a repeat returns the
 * first write's record as `duplicate` and writes nothing; the same key with a different request is refused
 * `IDEMPOTENCY_KEY_REUSED`. Only the record is stored, never how the API answered it.
 */
export async function withIdempotency<T extends Record<string, unknown>>(
  trx: Knex.Transaction,
  operatorId: string,
  scope: IdempotencyScope,
  write: () => Promise<WriteResult<T>>,
): Promise<WriteResult<T>> {
  if (!scope.key) return write();
  // Hashes a large field from the bytes its body worker wrote, the same digest as of the whole string.
  const requestHash = stableSha256Hex(`${scope.route}\n`, scope.body);
  const claim = await claimIdempotencyKey(trx, operatorId, scope.key, requestHash);
  if (claim.kind === 'conflict') {
    throw new CommandError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request');
  }
  if (claim.kind === 'replay') return { outcome: 'duplicate', data: storedData<T>(claim.body) };
  const result = await write();
  await recordIdempotentResponse(trx, operatorId, scope.key, result.data);
  return result;
}
