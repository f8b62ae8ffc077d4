/**
 * The data API's batch jobs as use cases: submitting one (`POST /batch/<kind>`) and processing one chunk of it (the
 * batch workflow's activity). Items are validated one by one as the chunks run (commands/ingest.ts `ingestChunk`),
 * so one bad item fails that item, not the batch.
 */
import { prefixedId } from '../core/ids';
import type { BatchKind } from '../core/ingestItems';
import type { BatchIngestInput } from '../core/workflowContracts';
import { claimChunk, failBatchJob, insertBatchJob, loadChunkItems, recordChunk } from '../db/queries/batchJobs';
import { storedSettings } from '../db/settingsPort';
import type { CommandDeps } from './deps';
import { ingestChunk } from './ingest';
import { requireTemplate } from './templates';

export interface SubmitBatchInput {
  operatorId: string;
  kind: BatchKind;
  /** The items as sent, already checked to be a non-empty array within the kind's limit. */
  items: unknown[];
  /**
   * Starts the job's Temporal workflow (temporal/batchJobs.ts), handed in since commands sit below temporal/. When it
   * throws, the job is failed ("The job could not be scheduled") and its error rethrown as it is.
   */
  start: (input: BatchIngestInput) => Promise<unknown>;
}

/**
 * Stores a batch job with its input, sealed chunk by chunk (core/batchSeal.ts), and starts its workflow (workflow id =
 * job id). Refused `TEMPLATE_NOT_CONFIGURED` before anything is stored.
 */
export async function submitBatchJob(
  deps: Pick<CommandDeps, 'db' | 'keyring' | 'config' | 'settings'>,
  input: SubmitBatchInput,
): Promise<{ jobId: string; status: 'queued' }> {
  const { operatorId, kind, items } = input;
  await requireTemplate(deps, operatorId);
  const jobId = prefixedId('job');
  const chunkSize = deps.config.BATCH_CHUNK_SIZE;
  await insertBatchJob(deps.db, deps.keyring, { id: jobId, operatorId, kind, items, chunkSize });
  try {
    await input.start({ operatorId, jobId, kind, totalItems: items.length, chunkSize });
  } catch (error) {
    await failBatchJob(deps.db, operatorId, jobId, 'The job could not be scheduled');
    throw error;
  }
  return { jobId, status: 'queued' };
}

export interface BatchChunkRef {
  operatorId: string;
  jobId: string;
  kind: BatchKind;
  chunkIndex: number;
  chunkSize: number;
}

/**
 * Processes one chunk exactly once: the chunk's claim row, its items and the job's progress commit in one
 * transaction, so a retry after a crash either finds the chunk done (`alreadyDone`) or starts it afresh. The template
 * is read in that transaction; refused `TEMPLATE_NOT_CONFIGURED` when the operator has none (the claim rolls back).
 */
export async function processBatchChunk(
  deps: Pick<CommandDeps, 'db' | 'keyring'>,
  input: BatchChunkRef,
): Promise<{ succeeded: number; failed: number; alreadyDone: boolean }> {
  const { keyring } = deps;
  return deps.db.transaction(async (trx) => {
    if (!(await claimChunk(trx, input.jobId, input.chunkIndex))) return { succeeded: 0, failed: 0, alreadyDone: true };
    const template = await requireTemplate({ settings: storedSettings(trx) }, input.operatorId);
    const baseIndex = input.chunkIndex * input.chunkSize;
    const items = await loadChunkItems(trx, keyring, input.operatorId, input.jobId, baseIndex, input.chunkSize);
    const result = await ingestChunk(trx, { kind: input.kind, operatorId: input.operatorId, template, keyring, items, baseIndex });
    await recordChunk(trx, input.operatorId, input.jobId, input.chunkIndex, result);
    return { succeeded: result.succeeded, failed: result.failed, alreadyDone: false };
  });
}
