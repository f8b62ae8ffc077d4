import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Keyring } from '../core/crypto';
import { ingestChunk } from '../commands/ingest';
import type { Db } from '../db/knex';
import { claimChunk, completeBatchJob, failBatchJob, loadChunkItems, markBatchJobRunning, recordChunk, type BatchKind } from '../db/queries/batchJobs';
import { getSettings } from '../db/queries/settings';
import { BOOKKEEPING, type ActivityDeclarations } from './declarations';

export interface BatchJobRef {
  operatorId: string;
  jobId: string;
}

export interface ChunkInput extends BatchJobRef {
  kind: BatchKind;
  chunkIndex: number;
  chunkSize: number;
}

export function createIngestActivities({ db, keyring }: { db: Db; keyring: Keyring }) {
  return {
    async startBatchJob(input: BatchJobRef): Promise<void> {
      await markBatchJobRunning(db, input.operatorId, input.jobId);
    },

    /**
     * Processes one chunk exactly once: the chunk's claim row, its items and the job's progress commit
     * in one transaction, so a retry after a crash either finds the chunk done or starts it afresh.
     */
    async processBatchChunk(input: ChunkInput): Promise<{ succeeded: number; failed: number; alreadyDone: boolean }> {
      Context.current().heartbeat();
      return db.transaction(async (trx) => {
        if (!(await claimChunk(trx, input.jobId, input.chunkIndex))) return { succeeded: 0, failed: 0, alreadyDone: true };
        const settings = await getSettings(trx as unknown as Db, input.operatorId);
        if (!settings.templateSchema) {
          throw ApplicationFailure.create({
            nonRetryable: true,
            type: 'TEMPLATE_NOT_CONFIGURED',
            message: 'No template configured; set it with PUT /settings',
          });
        }
        const baseIndex = input.chunkIndex * input.chunkSize;
        const items = await loadChunkItems(trx, keyring, input.operatorId, input.jobId, baseIndex, input.chunkSize);
        const result = await ingestChunk(trx, { kind: input.kind, operatorId: input.operatorId, template: settings.templateSchema, keyring, items, baseIndex });
        await recordChunk(trx, input.operatorId, input.jobId, input.chunkIndex, result);
        return { succeeded: result.succeeded, failed: result.failed, alreadyDone: false };
      });
    },

    async completeBatchJob(input: BatchJobRef): Promise<void> {
      await completeBatchJob(db, input.operatorId, input.jobId);
    },

    async failBatchJob(input: BatchJobRef & { message: string }): Promise<void> {
      await failBatchJob(db, input.operatorId, input.jobId, input.message);
    },
  };
}

/** How each of these activities meets the budget of large data (declarations.ts). */
export const INGEST_ACTIVITIES = {
  startBatchJob: BOOKKEEPING,
  processBatchChunk: BOOKKEEPING,
  completeBatchJob: BOOKKEEPING,
  failBatchJob: BOOKKEEPING,
} satisfies ActivityDeclarations<typeof createIngestActivities>;
