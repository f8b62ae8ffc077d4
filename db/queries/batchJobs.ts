import type { Knex } from 'knex';
import { chunksCovering, openBatchItems, sealBatchItems } from '../../core/batchSeal';
import type { Keyring } from '../../core/crypto';
import type { Db } from '../knex';

import type { BatchKind } from '../../core/ingestItems';

export type { BatchKind };
export const JOB_TYPES: Record<BatchKind, string> = {
  entities: 'batch_ingest_entities',
  events: 'batch_ingest_events',
  states: 'batch_ingest_states',
};

export interface BatchJobRow {
  id: string;
  operator_id: string;
  type: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  progress: number;
  total_items: number;
  output: { succeeded: number; failed: number; errors: unknown[] } | null;
  error: string | null;
  created_at: Date;
  completed_at: Date | null;
}

export interface ChunkError {
  index: number;
  externalId: string | null;
  code: string;
  message: string;
}

const PUBLIC_COLUMNS = ['id', 'operator_id', 'type', 'status', 'progress', 'total_items', 'output', 'error', 'created_at', 'completed_at'];

/** Stores a job with its items sealed chunk by chunk (core/batchSeal.ts), `chunkSize` the one its workflow reads with. */
export async function insertBatchJob(
  db: Db,
  keyring: Keyring,
  input: { id: string; operatorId: string; kind: BatchKind; items: unknown[]; chunkSize: number },
): Promise<void> {
  await db('batch_jobs').insert({
    id: input.id,
    operator_id: input.operatorId,
    type: JOB_TYPES[input.kind],
    total_items: input.items.length,
    input: JSON.stringify(sealBatchItems(keyring, input.operatorId, input.id, input.items, input.chunkSize)),
  });
}

export async function findBatchJob(db: Db, operatorId: string, jobId: string): Promise<BatchJobRow | undefined> {
  return db('batch_jobs').where({ operator_id: operatorId, id: jobId }).first(PUBLIC_COLUMNS);
}

export async function markBatchJobRunning(db: Db, operatorId: string, jobId: string): Promise<void> {
  await db('batch_jobs')
    .where({ operator_id: operatorId, id: jobId })
    .whereIn('status', ['queued', 'running'])
    .update({ status: 'running', started_at: db.raw('coalesce(started_at, now())') });
}

/**
 * Items `[start, start + size)` of a job, opened from the sealed chunks that hold them without reading the rest.
 * A job stored before sealing (`input` a plain array) is read as stored.
 */
export async function loadChunkItems(
  trx: Knex.Transaction,
  keyring: Keyring,
  operatorId: string,
  jobId: string,
  start: number,
  size: number,
): Promise<unknown[]> {
  const job = await trx('batch_jobs')
    .where({ id: jobId, operator_id: operatorId })
    .first<{ kind: string; chunk_size: number | null } | undefined>(
      trx.raw('jsonb_typeof(input) AS kind'),
      trx.raw("(input->>'chunkSize')::int AS chunk_size"),
    );
  if (job?.kind === 'object' && job.chunk_size) {
    const indexes = chunksCovering(job.chunk_size, start, size);
    const result = await trx.raw<{ rows: Array<{ sealed: string | null }> }>(
      `SELECT j.input->'chunks'->>n AS sealed FROM batch_jobs j, unnest(?::int[]) WITH ORDINALITY AS t(n, position)
        WHERE j.id = ? AND j.operator_id = ? ORDER BY t.position`,
      [indexes, jobId, operatorId],
    );
    return openBatchItems(
      keyring,
      operatorId,
      jobId,
      job.chunk_size,
      indexes,
      result.rows.map((row) => row.sealed),
      start,
      size,
    );
  }
  const result = await trx.raw<{ rows: Array<{ item: unknown }> }>(
    `SELECT t.item FROM batch_jobs j, jsonb_array_elements(j.input) WITH ORDINALITY AS t(item, position)
      WHERE j.id = ? AND j.operator_id = ? AND jsonb_typeof(j.input) = 'array' AND t.position > ? AND t.position <= ? ORDER BY t.position`,
    [jobId, operatorId, start, start + size],
  );
  return result.rows.map((row) => row.item);
}

/** Claims a chunk for processing; `false` when an earlier attempt already committed it. */
export async function claimChunk(trx: Knex.Transaction, jobId: string, chunkIndex: number): Promise<boolean> {
  const rows = await trx('batch_job_chunks')
    .insert({ job_id: jobId, chunk_index: chunkIndex, succeeded: 0, failed: 0, errors: '[]' })
    .onConflict(['job_id', 'chunk_index'])
    .ignore()
    .returning('chunk_index');
  return rows.length > 0;
}

export async function recordChunk(
  trx: Knex.Transaction,
  operatorId: string,
  jobId: string,
  chunkIndex: number,
  result: { succeeded: number; failed: number; errors: ChunkError[] },
): Promise<void> {
  await trx('batch_job_chunks')
    .where({ job_id: jobId, chunk_index: chunkIndex })
    .update({ succeeded: result.succeeded, failed: result.failed, errors: JSON.stringify(result.errors) });
  await trx.raw(
    `UPDATE batch_jobs j SET progress = LEAST(99, (SELECT coalesce(sum(c.succeeded + c.failed), 0) FROM batch_job_chunks c WHERE c.job_id = j.id) * 100 / GREATEST(j.total_items, 1))
      WHERE j.id = ? AND j.operator_id = ?`,
    [jobId, operatorId],
  );
}

/**
 * Completes the job from its chunk rows: totals, and every item error in input order. The stored input is
 * dropped: every item has been applied, and it is a copy of personal data erasure would not reach.
 */
export async function completeBatchJob(db: Db, operatorId: string, jobId: string): Promise<void> {
  await db.raw(
    `UPDATE batch_jobs j SET status = 'completed', progress = 100, completed_at = now(), input = '[]'::jsonb, output = (
        SELECT jsonb_build_object(
          'succeeded', coalesce(sum(c.succeeded), 0),
          'failed', coalesce(sum(c.failed), 0),
          'errors', coalesce((SELECT jsonb_agg(e ORDER BY (e->>'index')::int) FROM batch_job_chunks c2, jsonb_array_elements(c2.errors) e WHERE c2.job_id = j.id), '[]'::jsonb))
          FROM batch_job_chunks c WHERE c.job_id = j.id)
      WHERE j.id = ? AND j.operator_id = ? AND j.status <> 'completed'`,
    [jobId, operatorId],
  );
}

/** Fails the job for good, dropping its stored input as completion does. */
export async function failBatchJob(db: Db, operatorId: string, jobId: string, message: string): Promise<void> {
  await db('batch_jobs')
    .where({ operator_id: operatorId, id: jobId })
    .whereNot({ status: 'completed' })
    .update({ status: 'failed', error: message, completed_at: db.fn.now(), input: '[]' });
}
