import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { BatchIngestInput } from '../core/workflowContracts';

const bookkeeping = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '30 seconds' },
});

/**
 * The worker heartbeats every activity with a heartbeat timeout while it runs (worker/livenessHeartbeat.ts), so 4 s
 * without one means its worker is gone: the chunk moves to another worker within the 10-s recovery target. The first
 * retry follows at 200 ms (a chunk claims its rows, so a retry racing a slow attempt changes nothing): a lost worker's
 * chunk also waits for a free background slot, and the target has no second to spare for the backoff.
 */
const chunks = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '4 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '1 minute', maximumAttempts: 20, nonRetryableErrorTypes: ['TEMPLATE_NOT_CONFIGURED'] },
});

/**
 * A batch ingestion job: its stored input is processed chunk by chunk, each chunk an activity that
 * commits exactly once, so a worker killed mid-batch resumes where it stopped without duplicates.
 */
export async function batchIngestWorkflow(input: BatchIngestInput): Promise<{ succeeded: number; failed: number }> {
  const ref = { operatorId: input.operatorId, jobId: input.jobId };
  const totals = { succeeded: 0, failed: 0 };
  try {
    await bookkeeping.startBatchJob(ref);
    const count = Math.ceil(input.totalItems / input.chunkSize);
    for (let chunkIndex = 0; chunkIndex < count; chunkIndex += 1) {
      const result = await chunks.processBatchChunk({ ...ref, kind: input.kind, chunkIndex, chunkSize: input.chunkSize });
      totals.succeeded += result.succeeded;
      totals.failed += result.failed;
    }
    await bookkeeping.completeBatchJob(ref);
    return totals;
  } catch (error) {
    const cause = error instanceof ActivityFailure ? error.cause : error;
    const message = cause instanceof ApplicationFailure ? cause.message : 'Batch processing failed';
    await bookkeeping.failBatchJob({ ...ref, message });
    throw error;
  }
}
