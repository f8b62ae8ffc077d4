import { post } from '../stack/stackClient';
import { gatewayFixture, jobProblems, markerAutomation, markerEvent, settleJobs, settleRuns, storedCounts } from './fixtures';
import { chaosOperator, request, result, sleep, unclean503, waitUntil, type Answer, type Scenario } from './lib';
import { startEventTraffic } from './traffic';

/** The longest a synchronous call may take while Temporal is away before it must have answered (200 or 503). */
export const SYNC_CALL_LIMIT_MS = 30_000;

/**
 * 4. Temporal server restart under load: batch jobs and event-triggered runs in flight and a client making
 * synchronous calls (`POST /gateway`, `POST /workflows-api/workflows/:id/test`) while the dev server is down (2 s
 * with --short; 25 s otherwise, longer than the Temporal client's own gRPC retries) and starts again on the same
 * port and SQLite file. Jobs and runs must resume and finish exactly once; every synchronous call must answer 2xx
 * or a clean 503 within {@link SYNC_CALL_LIMIT_MS}, and the long outage must produce at least one such 503.
 */
export const temporalRestart: Scenario = async (context) => {
  const downMs = context.short ? 2000 : 25_000;
  const batches = context.short ? 1 : 3;
  const size = context.short ? 2000 : 5000;
  const { url } = context.api;
  const { operatorId, key } = await chaosOperator(url);
  await post(url, '/operator-data-api/entities', { entityType: 'player', externalId: 'chaos-temporal', data: {} }, key);
  const automation = await markerAutomation(url, key, 'Chaos Temporal marker');
  const manual = (
    await post(
      url,
      '/workflows-api/workflows',
      {
        name: 'Chaos Temporal test run',
        nodes: [
          { id: 'start', type: 'trigger.manual', params: {} },
          { id: 'mark', type: 'action.set_state', params: { externalId: 'chaos-temporal', key: 'tested', value: true } },
        ],
        edges: [{ from: 'start', to: 'mark' }],
      },
      key,
    )
  ).data.id as string;
  const gateway = await gatewayFixture(url, key);
  const jobs: string[] = [];
  for (let batch = 0; batch < batches; batch += 1) {
    const body = Array.from({ length: size }, (_, i) => ({ externalId: 'chaos-temporal', eventType: 'bonus', data: { bonus_id: `t-${batch}-${i}` } }));
    jobs.push((await post(url, '/operator-data-api/batch/events', body, key)).data.jobId as string);
  }
  const markers = startEventTraffic({ url: () => context.api.url, key, externalId: 'chaos-temporal', ...markerEvent, prefix: 'tm', clients: 1, pauseMs: 200 });
  const calls: Array<Answer & { at: number; kind: string }> = [];
  let calling = true;
  const caller = (async () => {
    for (let n = 0; calling; n += 1) {
      const [kind, path, body] = n % 2 === 0 ? ['gateway', '/gateway', gateway.body] : ['test run', `/workflows-api/workflows/${manual}/test`, {}];
      const answer = await request(context.api.url, path, { body, key, timeoutMs: 120_000 }).catch((error: Error) => ({
        status: 0,
        body: undefined,
        text: error.message,
        ms: 0,
      }));
      calls.push({ ...answer, at: Date.now(), kind });
      if (answer.status >= 500) await sleep(200);
    }
  })();
  await sleep(1500);
  const faultAt = Date.now();
  await context.stack.restartTemporal(downMs);
  const upAt = Date.now();
  const recovered = await waitUntil(
    async () => calls.find((call) => call.at > upAt && call.status === 200)?.at,
    60_000,
    'a synchronous call after the restart',
  ).catch(() => Date.now());
  await sleep(2000);
  calling = false;
  await Promise.all([caller, markers.stop()]);

  const failures = [...markers.problems];
  for (const call of calls) {
    if (call.status >= 200 && call.status < 300) continue;
    const unclean = call.status === 0 ? `no answer: ${call.text}` : unclean503(call);
    if (unclean) failures.push(`${call.kind}: ${unclean}`);
  }
  const slowest = Math.max(...calls.map((call) => call.ms));
  if (slowest > SYNC_CALL_LIMIT_MS) failures.push(`a synchronous call took ${Math.round(slowest)} ms`);
  // The long outage outlasts the client's gRPC retries (about 20 s), so some call must have taken the 503 path.
  if (!context.short && !calls.some((call) => call.status === 503)) failures.push('no synchronous call met the outage with a 503');
  const jobsSettled = await settleJobs(context.db, operatorId, jobs, 180_000);
  failures.push(...(jobsSettled.error ? [jobsSettled.error] : []), ...jobProblems(jobsSettled.rows, size));
  const batchAcked = new Set(jobs.flatMap((_, batch) => Array.from({ length: size }, (__, i) => `t-${batch}-${i}`)));
  const batchCounts = await storedCounts(context.db, operatorId, 'bonus_id', batchAcked);
  const markerCounts = await storedCounts(context.db, operatorId, 'reference', markers.acked);
  const runs = await settleRuns(context.db, operatorId, automation, markerCounts.stored, 120_000);
  if (runs.runs !== markerCounts.stored || runs.completed !== runs.runs) failures.push(`${markerCounts.stored} marker events, runs ${JSON.stringify(runs)}`);
  await gateway.supplier.close();
  const fiveXx = calls.filter((call) => call.status >= 500).length + markers.fiveXx;
  context.log(`temporal restart: ${calls.length} synchronous calls, ${fiveXx} 5xx, slowest ${Math.round(slowest)} ms`);
  return result(
    `Temporal restart (${downMs / 1000}s down)`,
    {
      sent: batchAcked.size + markers.sent.size,
      stored: batchCounts.stored + markerCounts.stored,
      lost: batchCounts.lost + markerCounts.lost,
      duplicated: batchCounts.duplicated + markerCounts.duplicated,
      fiveXx,
      recoveryMs: recovered - faultAt,
    },
    failures,
  );
};
