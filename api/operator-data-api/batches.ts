import { submitBatchJob } from '../../commands/batchJobs';
import type { BatchKind } from '../../core/ingestItems';
import { findBatchJob } from '../../db/queries/batchJobs';
import { startBatchIngest } from '../../temporal/batchJobs';
import { AppError } from '../errors';
import { data } from './area';
import { BATCH_LIMITS, JobParams } from './schema';
import { batchJobRecord } from './presenters';

/**
 * `POST /batch/<kind>`: submits the job (commands/batchJobs.ts) and answers 202 at once. Items are validated one by
 * one by the workflow, so the body is read raw: one bad item fails that item, not the batch.
 */
export const submitBatchHandler = (kind: BatchKind) =>
  data.handler({ raw: ['body'] }, async ({ deps, ctx, principal, raw }) => {
    const items = raw.body;
    const limit = BATCH_LIMITS[kind];
    if (!Array.isArray(items) || items.length === 0 || items.length > limit) {
      throw new AppError(400, 'INVALID_INPUT', `Body must be an array of 1 to ${limit} items`);
    }
    const start = async (input: Parameters<typeof startBatchIngest>[1]) => {
      try {
        await startBatchIngest(deps.temporal, input);
      } catch (error) {
        throw new AppError(500, 'INTERNAL_ERROR', 'The batch job could not be scheduled', { cause: error });
      }
    };
    const job = await submitBatchJob(deps, { operatorId: principal.operatorId, kind, items, start });
    ctx.status = 202;
    ctx.body = { success: true, data: job };
  });

/** `GET /batch/jobs/:jobId`, scoped to the caller's operator (another operator's job is 404). */
export const getBatchJobHandler = data.handler({ input: { params: JobParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  const job = await findBatchJob(deps.db, principal.operatorId, params.jobId);
  if (!job) throw new AppError(404, 'NOT_FOUND', `No batch job ${params.jobId}`);
  ctx.body = { success: true, data: batchJobRecord(job) };
});
