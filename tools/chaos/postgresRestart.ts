import { post } from '../stack/stackClient';
import { dispatchLagMs, markerAutomation, markerEvent, pendingOutbox, settleRuns, storedCounts } from './fixtures';
import { chaosOperator, result, sleep, waitUntil, type Scenario } from './lib';
import { startEventTraffic, waitForAckAfter } from './traffic';

/** Event → run start after the outage: the dispatcher answers in well under this; the minutely sweep would not. */
const DISPATCH_LAG_LIMIT_MS = 8_000;

/**
 * 3. PostgreSQL restart under load: ingest clients (retrying with their key on a 503) and a trickle of events
 * that fire an automation keep going while PostgreSQL stops for a few seconds and comes back. Every 5xx must be
 * a clean 503; the API and the worker must come back by themselves; nothing acknowledged may be lost; the
 * outbox must drain (every marker event fires its run exactly once), through the dispatcher's LISTEN connection
 * again, not only the minutely sweep.
 */
export const postgresRestart: Scenario = async (context) => {
  const downMs = context.short ? 2000 : 4000;
  const { url } = context.api;
  const { operatorId, key } = await chaosOperator(url);
  await post(url, '/operator-data-api/entities', { entityType: 'player', externalId: 'chaos-pg', data: {} }, key);
  const workflowId = await markerAutomation(url, key, 'Chaos PG marker');
  const common = { url: () => context.api.url, key, externalId: 'chaos-pg', retryPauseMs: 200 };
  const load = startEventTraffic({ ...common, eventType: 'bonus', data: (ref) => ({ bonus_id: ref }), prefix: 'pg', clients: 8 });
  const markers = startEventTraffic({ ...common, ...markerEvent, prefix: 'pgm', clients: 1, pauseMs: 200 });
  await sleep(2000);
  const faultAt = Date.now();
  await context.stack.restartPostgres(downMs);
  const upAt = Date.now();
  const recovered = await waitForAckAfter(load, upAt);
  await sleep(3000);
  await Promise.all([load.stop(), markers.stop()]);
  const failures = [...load.problems, ...markers.problems];
  const counts = await storedCounts(context.db, operatorId, 'bonus_id', load.acked);
  const markerCounts = await storedCounts(context.db, operatorId, 'reference', markers.acked);
  const runs = await settleRuns(context.db, operatorId, workflowId, markerCounts.stored, 90_000);
  if (runs.runs !== markerCounts.stored || runs.completed !== runs.runs) failures.push(`${markerCounts.stored} marker events, runs ${JSON.stringify(runs)}`);
  const pending = await waitUntil(async () => ((await pendingOutbox(context.db, operatorId)) === 0 ? 0 : undefined), 30_000, 'outbox drained').catch(() => -1);
  if (pending !== 0) failures.push(`outbox still has ${await pendingOutbox(context.db, operatorId)} pending rows`);
  if (load.fiveXx === 0) failures.push('no request met the outage (no 503 seen)');
  const lag = await dispatchLagMs(context.db, operatorId, workflowId, new Date(recovered));
  context.log(`dispatch lag after the restart: ${lag} ms`);
  if (lag === null || lag > DISPATCH_LAG_LIMIT_MS)
    failures.push(`after the restart an event waited ${lag === null ? 'forever' : `${Math.round(lag)} ms`} for its run: the dispatcher did not resume`);
  return result(
    `PostgreSQL restart (${downMs / 1000}s down)`,
    {
      sent: load.sent.size + markers.sent.size,
      stored: counts.stored + markerCounts.stored,
      lost: counts.lost + markerCounts.lost,
      duplicated: counts.duplicated + markerCounts.duplicated,
      fiveXx: load.fiveXx + markers.fiveXx,
      recoveryMs: recovered - faultAt,
    },
    failures,
  );
};
