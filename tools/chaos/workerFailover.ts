import { post } from '../stack/stackClient';
import { jobProblems, settleJobs } from './fixtures';
import { chaosOperator, recoveryAgainstTarget, result, sleep, waitUntil, type Scenario } from './lib';

type Progress = Map<string, { progress: number; status: string }>;

async function progressOf(context: Parameters<Scenario>[0], operatorId: string, jobs: string[]): Promise<Progress> {
  const rows = (await context.db('batch_jobs').where({ operator_id: operatorId }).whereIn('id', jobs).select('id', 'progress', 'status')) as Array<{
    id: string;
    progress: number;
    status: string;
  }>;
  return new Map(rows.map((row) => [row.id, { progress: row.progress, status: row.status }]));
}

const finished = (status: string) => status === 'completed' || status === 'failed';

/**
 * 9. One of two workers SIGKILLed while both work a queue of batch jobs: the other worker must keep the queue moving
 * (some job commits within seconds of the kill), and the chunks the killed worker held must resume on the survivor
 * within the 10-s target (every job under way at the kill commits again). Every job ends `completed` with its exact
 * count, each event stored once. The survivor stays as the stack's worker.
 */
export const workerFailover: Scenario = async (context) => {
  const jobsCount = context.short ? 3 : 6;
  const size = context.short ? 2000 : 5000;
  const { url } = context.api;
  const { operatorId, key } = await chaosOperator(url);
  await post(url, '/operator-data-api/entities', { entityType: 'player', externalId: 'chaos-workers', data: {} }, key);
  const survivor = await context.stack.spawnWorker();
  const jobs: string[] = [];
  for (let index = 0; index < jobsCount; index += 1) {
    const body = Array.from({ length: size }, (_, i) => ({ externalId: 'chaos-workers', eventType: 'bonus', data: { bonus_id: `w-${index}-${i}` } }));
    jobs.push((await post(url, '/operator-data-api/batch/events', body, key)).data.jobId as string);
  }
  await waitUntil(
    async () => ([...(await progressOf(context, operatorId, jobs)).values()].filter((job) => job.progress > 0).length >= 2 ? true : undefined),
    60_000,
    'two jobs under way',
    20,
  );
  const before = await progressOf(context, operatorId, jobs);
  await context.worker.kill('SIGKILL');
  const killedAt = Date.now();
  context.worker = survivor;

  let movedMs: number | null = null;
  const resumed = new Map<string, number>();
  const open = [...before].filter(([, job]) => job.progress > 0 && !finished(job.status)).map(([id]) => id);
  while (Date.now() - killedAt < 60_000 && resumed.size < open.length) {
    const now = await progressOf(context, operatorId, jobs);
    for (const id of open) {
      const was = before.get(id)!;
      const is = now.get(id)!;
      if (!resumed.has(id) && (is.progress > was.progress || finished(is.status))) {
        resumed.set(id, Date.now() - killedAt);
        movedMs ??= Date.now() - killedAt;
      }
    }
    await sleep(50);
  }
  const worstResumeMs = Math.max(0, ...resumed.values());
  const failures: string[] = [];
  if (resumed.size < open.length) failures.push(`${open.length - resumed.size} of ${open.length} jobs under way never committed again`);
  const target = recoveryAgainstTarget(worstResumeMs);
  if (target.failure) failures.push(target.failure);

  const settled = await settleJobs(context.db, operatorId, jobs, 240_000);
  failures.push(...(settled.error ? [settled.error] : []), ...jobProblems(settled.rows, size));
  const [events] = await context
    .db('entity_events')
    .where({ operator_id: operatorId })
    .select(context.db.raw("count(*)::int AS total, count(DISTINCT data->>'bonus_id')::int AS distinct_ids"));
  const expected = jobsCount * size;
  const line = result(
    'one of two workers SIGKILLed',
    {
      sent: expected,
      stored: events.distinct_ids,
      lost: expected - events.distinct_ids,
      duplicated: events.total - events.distinct_ids,
      fiveXx: 0,
      recoveryMs: worstResumeMs,
    },
    failures,
  );
  const moved = movedMs === null ? 'queue stalled' : `queue moved ${(movedMs / 1000).toFixed(1)}s after the kill`;
  return { ...line, extra: `${moved}; ${target.extra}` };
};
