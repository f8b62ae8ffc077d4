import type { Context } from 'koa';
import { prefixedId } from '../../core/ids';
import type { BatchKind } from '../../core/ingestItems';
import { failBatchJob, findBatchJob, insertBatchJob } from '../../db/queries/batchJobs';
import { startBatchIngest } from '../../temporal/batchJobs';
import type { BatchIngestInput } from '../../core/workflowContracts';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { operatorOf } from '../middleware/authenticate';
import type { InputOf } from '../endpoint';
import { requireTemplate } from './context';
import { BATCH_LIMITS, type JobParams } from './schema';
import { batchJobRecord } from './presenters';

/**
 * `POST /batch/<kind>`: stores the job with its input, sealed chunk by chunk (core/batchSeal.ts), and starts its
 * Temporal workflow (workflow id = job id), answering 202 at once. Items are validated one by one by the workflow.
 */
export async function submitBatchHandler(deps: AppDeps, ctx: Context, kind: BatchKind): Promise<void> {
  const items = ctx.request.body;
  const limit = BATCH_LIMITS[kind];
  if (!Array.isArray(items) || items.length === 0 || items.length > limit) {
    throw new AppError(400, 'INVALID_INPUT', `Body must be an array of 1 to ${limit} items`);
  }
  const operatorId = operatorOf(ctx);
  await requireTemplate(deps, operatorId);
  const jobId = prefixedId('job');
  const chunkSize = deps.config.BATCH_CHUNK_SIZE;
  await insertBatchJob(deps.db, deps.keyring, { id: jobId, operatorId, kind, items, chunkSize });
  const input: BatchIngestInput = { operatorId, jobId, kind, totalItems: items.length, chunkSize };
  try {
    await startBatchIngest(deps.temporal, input);
  } catch (error) {
    await failBatchJob(deps.db, operatorId, jobId, 'The job could not be scheduled');
    throw new AppError(500, 'INTERNAL_ERROR', 'The batch job could not be scheduled', { cause: error });
  }
  ctx.status = 202;
  ctx.body = { success: true, data: { jobId, status: 'queued' } };
}

/** `GET /batch/jobs/:jobId`, scoped to the caller's operator (another operator's job is 404). */
export async function getBatchJobHandler(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof JobParams }>): Promise<void> {
  const job = await findBatchJob(deps.db, operatorOf(ctx), params.jobId);
  if (!job) throw new AppError(404, 'NOT_FOUND', `No batch job ${params.jobId}`);
  ctx.body = { success: true, data: batchJobRecord(job) };
}
