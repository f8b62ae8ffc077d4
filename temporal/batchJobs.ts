import type { Client } from '@temporalio/client';
import { batchIngestWorkflow } from '../workflows/batchIngest';
import type { BatchIngestInput } from '../core/workflowContracts';

/**
 * Starts a stored batch job's workflow without waiting; the workflow id is the job id, so a job can
 * never run twice.
 *
 * @example await startBatchIngest(temporal, { operatorId, jobId, kind: 'events', totalItems: 5000, chunkSize: 1000 })
 */
export async function startBatchIngest(temporal: { client: Client; taskQueue: string; eagerStart: boolean }, input: BatchIngestInput): Promise<void> {
  await temporal.client.workflow.start(batchIngestWorkflow, {
    taskQueue: temporal.taskQueue,
    workflowId: input.jobId,
    args: [input],
    requestEagerStart: temporal.eagerStart,
  });
}
