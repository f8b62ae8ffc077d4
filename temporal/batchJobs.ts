import type { Client } from '@temporalio/client';
import { batchIngestWorkflow } from '../workflows/batchIngest';
import type { BatchIngestInput } from '../core/workflowContracts';

/**
 * A batch job's workflow tasks are a few milliseconds each; a task started by a worker that is then killed is
 * handed to another after this rather than the default 10 s (docs/production.md, recovery after a worker is lost).
 */
const BATCH_WORKFLOW_TASK_TIMEOUT = '5 seconds';

/**
 * Starts a stored batch job's workflow on the background queue without waiting (never eager: the worker of this
 * process may not poll that queue); the workflow id is the job id, so a job can never run twice.
 *
 * @example await startBatchIngest(temporal, { operatorId, jobId, kind: 'events', totalItems: 5000, chunkSize: 1000 })
 */
export async function startBatchIngest(temporal: { client: Client; backgroundTaskQueue: string }, input: BatchIngestInput): Promise<void> {
  await temporal.client.workflow.start(batchIngestWorkflow, {
    taskQueue: temporal.backgroundTaskQueue,
    workflowId: input.jobId,
    args: [input],
    workflowTaskTimeout: BATCH_WORKFLOW_TASK_TIMEOUT,
  });
}
