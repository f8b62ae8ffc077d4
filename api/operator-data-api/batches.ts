import { prefixedId } from '../../core/ids';
import type { BatchKind } from '../../core/ingestItems';
import { failBatchJob, findBatchJob, insertBatchJob } from '../../db/queries/batchJobs';
import { startBatchIngest } from '../../temporal/batchJobs';
import type { BatchIngestInput } from '../../core/workflowContracts';
import { AppError } from '../errors';
import { data } from './area';
import { requireTemplate } from './context';
import { BATCH_LIMITS, JobParams } from './schema';
import { batchJobRecord } from './presenters';

/**
 * `POST /batch/<kind>`: stores the job with its input, sealed chunk by chunk (core/batchSeal.ts), and starts its
 * Temporal workflow (workflow id = job id), answering 202 at once. Items are validated one by one by the workflow,
 * so the body is read raw: one bad item fails that item, not the batch.
 */
export const submitBatchHandler = (kind: BatchKind) =>
  data.handler({ raw: ['body'] }, async ({ deps, ctx, principal, raw }) => {
    const items = raw.body;
    const limit = BATCH_LIMITS[kind];
    if (!Array.isArray(items) || items.length === 0 || items.length > limit) {
      throw new AppError(400, 'INVALID_INPUT', `Body must be an array of 1 to ${limit} items`);
    }
    const { operatorId } = principal;
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
  });

/** `GET /batch/jobs/:jobId`, scoped to the caller's operator (another operator's job is 404). */
export const getBatchJobHandler = data.handler({ input: { params: JobParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  const job = await findBatchJob(deps.db, principal.operatorId, params.jobId);
  if (!job) throw new AppError(404, 'NOT_FOUND', `No batch job ${params.jobId}`);
  ctx.body = { success: true, data: batchJobRecord(job) };
});
