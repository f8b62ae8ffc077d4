import { ApplicationFailure, Context } from '@temporalio/activity';
import { processBatchChunk, type BatchChunkRef } from '../commands/batchJobs';
import { CommandError } from '../commands/errors';
import type { Keyring } from '../core/crypto';
import type { Db } from '../db/knex';
import { completeBatchJob, failBatchJob, markBatchJobRunning } from '../db/queries/batchJobs';
import { BOOKKEEPING, type ActivityDeclarations } from './declarations';
import type { IntakePacer } from './intakePacer';

export interface BatchJobRef {
  operatorId: string;
  jobId: string;
}

export type ChunkInput = BatchChunkRef;

export function createIngestActivities({ db, keyring, intake }: { db: Db; keyring: Keyring; intake?: IntakePacer }) {
  return {
    async startBatchJob(input: BatchJobRef): Promise<void> {
      await markBatchJobRunning(db, input.operatorId, input.jobId);
    },

    /**
     * One chunk exactly once (commands/batchJobs.ts), at the worker's intake pace (./intakePacer.ts); a refusal (no
     * template) fails the job without retry, by its code.
     */
    async processBatchChunk(input: ChunkInput): Promise<{ succeeded: number; failed: number; alreadyDone: boolean }> {
      Context.current().heartbeat();
      try {
        const chunk = () => processBatchChunk({ db, keyring }, input);
        return await (intake ? intake.paced(input.operatorId, chunk) : chunk());
      } catch (error) {
        if (error instanceof CommandError) throw ApplicationFailure.create({ nonRetryable: true, type: error.code, message: error.message });
        throw error;
      }
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
