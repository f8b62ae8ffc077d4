import { Keyring } from './crypto';

/**
 * A batch job's items at rest (docs/security.md "Batch jobs"). They wait in `batch_jobs.input` from the 202 until
 * the job ends, so they are sealed: one ciphertext per chunk of the job's chunk size (one encryption per chunk, not
 * per item, to keep ingest throughput), each bound to the operator, the job and the chunk's index so a chunk cannot
 * be moved to another job, tenant or position and still open. Only the batch activity opens them.
 */
export interface SealedBatchInput {
  chunkSize: number;
  chunks: string[];
}

const contextOf = (operatorId: string, jobId: string, chunkIndex: number) => `${operatorId}:batch:${jobId}:chunk:${chunkIndex}`;

export function sealBatchItems(keyring: Keyring, operatorId: string, jobId: string, items: unknown[], chunkSize: number): SealedBatchInput {
  const chunks: string[] = [];
  for (let start = 0; start < items.length; start += chunkSize) {
    chunks.push(keyring.encryptJson(items.slice(start, start + chunkSize), contextOf(operatorId, jobId, chunks.length)));
  }
  return { chunkSize, chunks };
}

/** The sealed chunks that hold items `[start, start + size)`, by index. */
export function chunksCovering(chunkSize: number, start: number, size: number): number[] {
  const first = Math.floor(start / chunkSize);
  const last = Math.floor((start + size - 1) / chunkSize);
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, offset) => first + offset);
}

/**
 * Items `[start, start + size)` out of the chunks `chunksCovering` named (`sealed[i]` is chunk `indexes[i]`, absent
 * past the end). The workflow asks with the chunk size the job was sealed with, so this opens exactly one chunk.
 */
export function openBatchItems(
  keyring: Keyring,
  operatorId: string,
  jobId: string,
  chunkSize: number,
  indexes: number[],
  sealed: Array<string | null>,
  start: number,
  size: number,
): unknown[] {
  const items: unknown[] = [];
  indexes.forEach((chunkIndex, i) => {
    const ciphertext = sealed[i];
    if (!Keyring.isCiphertext(ciphertext)) return;
    const chunk = keyring.decryptJson(ciphertext, contextOf(operatorId, jobId, chunkIndex)) as unknown[];
    const from = Math.max(0, start - chunkIndex * chunkSize);
    const to = Math.min(chunk.length, start + size - chunkIndex * chunkSize);
    items.push(...chunk.slice(from, to));
  });
  return items;
}
