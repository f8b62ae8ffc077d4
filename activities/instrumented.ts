import type { Db } from '../db/knex';
import { batchJobTiming } from '../db/queries/metrics';
import type { ActivityMetrics } from './metrics';
import type { BatchJobRef } from './ingest';
import type { BeginRunInput, BeginRunResult, FinishRunInput, FinishRunResult } from './automation/types';

interface Instrumentable {
  beginAutomationRun(input: BeginRunInput): Promise<BeginRunResult>;
  finishAutomationRun(input: FinishRunInput): Promise<FinishRunResult>;
  completeBatchJob(input: BatchJobRef): Promise<void>;
  failBatchJob(input: BatchJobRef & { message: string }): Promise<void>;
}

/**
 * The activities that begin and end runs and end batch jobs, reporting to the metrics after they did their work.
 * A retried activity (its first result lost) reports again: the counts are at least once. A failure to read
 * a job's timing never fails the activity.
 */
export function instrumentEnds(activities: Instrumentable, deps: { db: Db; metrics: ActivityMetrics }): Instrumentable {
  const { db, metrics } = deps;
  const timeJob = async (input: BatchJobRef) => {
    const timing = await batchJobTiming(db, input.operatorId, input.jobId).catch(() => undefined);
    if (timing) metrics.batchJobFinished(timing.type, timing.status === 'completed' ? 'completed' : 'failed', timing.seconds);
  };
  return {
    async beginAutomationRun(input) {
      const result = await activities.beginAutomationRun(input);
      if (result.kind === 'rejected') metrics.runFinished(result.source, 'failed');
      if (result.kind === 'started') metrics.runBegun(input.source, Math.max(0, Date.now() - Date.parse(input.startedAt)) / 1000);
      return result;
    },
    async finishAutomationRun(input) {
      const run = await activities.finishAutomationRun(input);
      metrics.runFinished(run.source, run.status);
      return run;
    },
    async completeBatchJob(input) {
      await activities.completeBatchJob(input);
      await timeJob(input);
    },
    async failBatchJob(input) {
      await activities.failBatchJob(input);
      await timeJob(input);
    },
  };
}
