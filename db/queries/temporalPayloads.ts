import { randomUUID } from 'node:crypto';
import type { Db } from '../knex';

/**
 * Where payloads too large for Temporal rest (`temporal/claimCheckCodec.ts`). Platform storage, keyed by ids the
 * codec wrote into history; every row names its owner workflow.
 */
export interface PayloadStore {
  /** Stores sealed payload bytes for `owner`; `ttlMs` sets an expiry at once (short-lived owners). */
  put(owner: string, sealed: Uint8Array, ttlMs?: number): Promise<string>;
  /** The sealed bytes of a stored payload (only if `owner` owns it, when given), or undefined when it is gone. */
  get(id: string, owner?: string): Promise<Uint8Array | undefined>;
}

/**
 * The PostgreSQL store: one INSERT per large payload, one SELECT per read (the codec caches reads).
 *
 * @example const store = postgresPayloadStore(db); const id = await store.put('automation-manual-run_…', bytes)
 */
export function postgresPayloadStore(db: Db): PayloadStore {
  return {
    async put(owner, sealed, ttlMs) {
      const id = randomUUID();
      await db('temporal_payloads').insert({
        id,
        owner,
        sealed: Buffer.from(sealed),
        bytes: sealed.byteLength,
        expires_at: ttlMs === undefined ? null : new Date(Date.now() + ttlMs),
      });
      return id;
    },
    async get(id, owner) {
      const row = await db('temporal_payloads')
        .where({ id, ...(owner === undefined ? {} : { owner }) })
        .first<{ sealed: Buffer } | undefined>('sealed');
      return row?.sealed;
    },
  };
}

/**
 * Deletes stored payloads no history can still need: those past their expiry, those of runs that closed more than
 * `closedRunGraceMs` ago (Temporal keeps a closed history for the namespace's retention; after it, nothing reads them),
 * and those of other short-lived owners (batch jobs, e-mails, schedules' own runs) older than `otherOwnersMaxAgeMs`.
 * Runs still running keep theirs, however long they sleep.
 */
export async function purgeTemporalPayloads(db: Db, options: { closedRunGraceMs: number; otherOwnersMaxAgeMs: number }): Promise<number> {
  const result = await db.raw<{ rowCount: number }>(
    `DELETE FROM temporal_payloads p
      WHERE p.expires_at < now()
         OR (p.owner LIKE 'automation-%' AND NOT EXISTS (
               SELECT 1 FROM automation_runs r
                WHERE r.temporal_workflow_id = p.owner AND (r.status = 'running' OR r.completed_at > now() - ? * interval '1 millisecond'))
             AND p.created_at < now() - ? * interval '1 millisecond')
         OR (p.owner NOT LIKE 'automation-%' AND p.expires_at IS NULL AND p.created_at < now() - ? * interval '1 millisecond')`,
    [options.closedRunGraceMs, options.closedRunGraceMs, options.otherOwnersMaxAgeMs],
  );
  return result.rowCount;
}
