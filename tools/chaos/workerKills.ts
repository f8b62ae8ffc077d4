import { post } from '../stack/stackClient';
import { jobProblems, settleJobs } from './fixtures';
import {
  chaosOperator,
  recoveryAgainstTarget,
  request,
  result,
  waitUntil,
  withSurvivingWorker,
  type ChaosContext,
  type Scenario,
  type ScenarioResult,
} from './lib';

/**
 * 1. Worker SIGKILL mid-batch, beside a second worker that is never killed: each batch of events is submitted, the
 * first worker is killed once the job has committed part of it, and a fresh one is started (the next batch goes in at once, so the wait for the
 * killed chunk's heartbeat timeout overlaps the next kill). Every job must end `completed` with its exact
 * count; entity_events and outbox_events must hold each event exactly once; the worst recovery (kill → the killed
 * job's next commit) must be within the 10-s target.
 */
export const workerKills: Scenario = (context) => withSurvivingWorker(context, () => workerKillsBesideSurvivor(context));

async function workerKillsBesideSurvivor(context: ChaosContext): Promise<ScenarioResult> {
  const batches = context.short ? 3 : 20;
  const size = context.short ? 2000 : 5000;
  const { url } = context.api;
  const { operatorId, key } = await chaosOperator(url);
  await post(url, '/operator-data-api/entities', { entityType: 'player', externalId: 'chaos-batch', data: {} }, key);
  const jobs: string[] = [];
  const failures: string[] = [];
  let killedMidBatch = 0;
  let worstRecoveryMs = 0;
  for (let batch = 0; batch < batches; batch += 1) {
    const body = Array.from({ length: size }, (_, i) => ({ externalId: 'chaos-batch', eventType: 'bonus', data: { bonus_id: `b-${batch}-${i}` } }));
    const submitted = await post(url, '/operator-data-api/batch/events', body, key);
    const jobId = submitted.data.jobId as string;
    jobs.push(jobId);
    const progress = await waitUntil(
      async () => {
        const job = (await request(url, `/operator-data-api/batch/jobs/${jobId}`, { key })).body.data;
        return job.progress > 0 || (job.status !== 'queued' && job.status !== 'running') ? (job.progress as number) : undefined;
      },
      60_000,
      `batch ${batch} progress`,
      10,
    );
    const killedAt = Date.now();
    await context.worker.kill('SIGKILL');
    if (progress > 0 && progress < 100) killedMidBatch += 1;
    context.worker = await context.stack.spawnWorker();
    // Recovery: the killed job commits another chunk (after the killed chunk's heartbeat timeout, or the sticky or
    // workflow-task timeout when the kill fell between chunks).
    void waitUntil(
      async () => {
        const job = (await request(url, `/operator-data-api/batch/jobs/${jobId}`, { key })).body.data;
        return job.progress > progress || job.status === 'completed' ? true : undefined;
      },
      120_000,
      'progress after the kill',
      100,
    ).then(
      () => {
        worstRecoveryMs = Math.max(worstRecoveryMs, Date.now() - killedAt);
      },
      () => undefined,
    );
  }
  const settled = await settleJobs(context.db, operatorId, jobs, 240_000);
  failures.push(...(settled.error ? [settled.error] : []), ...jobProblems(settled.rows, size));
  if (killedMidBatch < batches) failures.push(`only ${killedMidBatch} of ${batches} kills fell mid-batch`);
  const [events] = await context
    .db('entity_events')
    .where({ operator_id: operatorId })
    .select(context.db.raw("count(*)::int AS total, count(DISTINCT data->>'bonus_id')::int AS distinct_ids"));
  const [outbox] = await context
    .db('outbox_events')
    .where({ operator_id: operatorId, event: 'entity_event.bonus' })
    .select(context.db.raw('count(*)::int AS total, count(DISTINCT source_event_id)::int AS distinct_ids'));
  const expected = batches * size;
  const target = recoveryAgainstTarget(worstRecoveryMs);
  if (target.failure) failures.push(target.failure);
  if (outbox.total !== events.total || outbox.distinct_ids !== outbox.total)
    failures.push(`outbox rows ${outbox.total} (${outbox.distinct_ids} distinct) for ${events.total} events`);
  const line = result(
    `worker SIGKILL mid-batch x${batches}`,
    {
      sent: expected,
      stored: events.distinct_ids,
      lost: expected - events.distinct_ids,
      duplicated: events.total - events.distinct_ids,
      fiveXx: 0,
      recoveryMs: worstRecoveryMs,
    },
    failures,
  );
  return { ...line, extra: target.extra };
}
