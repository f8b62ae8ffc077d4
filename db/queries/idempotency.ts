import type { Knex } from 'knex';

export const IDEMPOTENCY_TTL_DAYS = 7;

export type IdempotencyClaim = { kind: 'claimed' } | { kind: 'replay'; body: Record<string, unknown> } | { kind: 'conflict' };

/**
 * Claims an idempotency key inside the caller's transaction. A concurrent request with the same key
 * waits on the primary key until this transaction ends, then sees the stored response: exactly one
 * write happens. An expired key (7 days) is taken over as new.
 */
export async function claimIdempotencyKey(trx: Knex.Transaction, operatorId: string, key: string, requestHash: string): Promise<IdempotencyClaim> {
  const claimed = await trx.raw<{ rows: unknown[] }>(
    `INSERT INTO idempotency_keys (operator_id, key, request_hash, expires_at)
     VALUES (?, ?, ?, now() + make_interval(days => ?))
     ON CONFLICT (operator_id, key) DO UPDATE
        SET request_hash = EXCLUDED.request_hash, response_status = NULL, response_body = NULL,
            created_at = now(), expires_at = EXCLUDED.expires_at
      WHERE idempotency_keys.expires_at < now()
     RETURNING key`,
    [operatorId, key, requestHash, IDEMPOTENCY_TTL_DAYS],
  );
  if (claimed.rows.length > 0) return { kind: 'claimed' };
  const existing = await trx('idempotency_keys').where({ operator_id: operatorId, key }).first('request_hash', 'response_body');
  if (!existing || existing.request_hash !== requestHash) return { kind: 'conflict' };
  return { kind: 'replay', body: existing.response_body ?? {} };
}

/**
 * Stores what a claimed key's write answered, as `{ data }`: the record it wrote, by which erasure finds the rows of
 * an entity (`forgetEntityRequests`). `response_status` is no longer written (a status is the API's, not the
 * write's); rows from before keep theirs, which nothing reads.
 */
export async function recordIdempotentResponse(trx: Knex.Transaction, operatorId: string, key: string, data: Record<string, unknown>): Promise<void> {
  await trx('idempotency_keys')
    .where({ operator_id: operatorId, key })
    .update({ response_body: JSON.stringify({ data }) });
}

/**
 * Erasure's part in idempotency records: drops every stored response of a write about the entity (its upserts
 * answer with its id, its events with theirs), and with it the SHA-256 of the request body, which would confirm a
 * guess of its personal data. A retry of such a request after erasure meets the erased entity (`ENTITY_ERASED`).
 */
export async function forgetEntityRequests(trx: Knex.Transaction, operatorId: string, entityId: string): Promise<number> {
  const result = await trx.raw<{ rowCount: number }>(
    `DELETE FROM idempotency_keys k
      WHERE k.operator_id = ? AND k.response_body IS NOT NULL
        AND (k.response_body -> 'data' ->> 'id' = ?
             OR k.response_body -> 'data' ->> 'id' IN (SELECT e.id FROM entity_events e WHERE e.operator_id = ? AND e.entity_id = ?
                                                      UNION ALL SELECT a.id FROM entity_events_archive a WHERE a.operator_id = ? AND a.entity_id = ?))`,
    [operatorId, entityId, operatorId, entityId, operatorId, entityId],
  );
  return result.rowCount;
}
