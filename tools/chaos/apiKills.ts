import { post } from '../stack/stackClient';
import { storedCounts } from './fixtures';
import { chaosOperator, result, sleep, type Scenario } from './lib';
import { startEventTraffic, waitForAckAfter } from './traffic';

/**
 * 2. API SIGKILL during single-event ingest: concurrent clients send events with an `Idempotency-Key` each and
 * retry with the same key on connection errors; the API process is killed and started again on the same port
 * several times. Every acknowledged event must be stored exactly once.
 */
export const apiKills: Scenario = async (context) => {
  const kills = context.short ? 2 : 5;
  const { operatorId, key } = await chaosOperator(context.api.url);
  await post(context.api.url, '/operator-data-api/entities', { entityType: 'player', externalId: 'chaos-api', data: {} }, key);
  const port = new URL(context.api.url).port;
  const traffic = startEventTraffic({
    url: () => context.api.url,
    key,
    externalId: 'chaos-api',
    eventType: 'bonus',
    data: (ref) => ({ bonus_id: ref }),
    prefix: 'api',
    clients: context.short ? 8 : 16,
    retryPauseMs: 50,
  });
  let worstRecoveryMs = 0;
  for (let kill = 0; kill < kills; kill += 1) {
    await sleep(1500);
    await context.api.kill('SIGKILL');
    const killedAt = Date.now();
    context.api = await context.stack.spawnApi({ PORT: port });
    const recovered = await waitForAckAfter(traffic, killedAt);
    worstRecoveryMs = Math.max(worstRecoveryMs, recovered - killedAt);
  }
  await sleep(1000);
  await traffic.stop();
  const counts = await storedCounts(context.db, operatorId, 'bonus_id', traffic.acked);
  const failures = [...traffic.problems];
  if (counts.unacknowledged > 0) failures.push(`${counts.unacknowledged} stored events were never acknowledged`);
  return result(
    `API SIGKILL during ingest x${kills}`,
    {
      sent: traffic.sent.size,
      stored: counts.stored,
      lost: counts.lost,
      duplicated: counts.duplicated,
      fiveXx: traffic.fiveXx,
      recoveryMs: worstRecoveryMs,
    },
    failures,
  );
};
