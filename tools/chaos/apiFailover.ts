import { post } from '../stack/stackClient';
import { storedCounts } from './fixtures';
import { chaosOperator, result, sleep, type Scenario } from './lib';
import { startEventTraffic } from './traffic';

/** How long the killed instance stays down while the other one takes all the traffic. */
const DOWN_MS = 3_000;

/**
 * 8. One of two API instances SIGKILLed under load: a second API process serves beside the first, and the clients
 * spread their events over both and send a retry (same `Idempotency-Key`) to the next instance, as a client behind a
 * load balancer does. The first instance is killed, stays down for a while and comes back, several times. Every
 * acknowledged event must be stored exactly once, and acknowledgements must keep coming while one instance is down:
 * the recovery figure is the longest silence after a kill.
 */
export const apiFailover: Scenario = async (context) => {
  const kills = context.short ? 2 : 4;
  const { operatorId, key } = await chaosOperator(context.api.url);
  await post(context.api.url, '/operator-data-api/entities', { entityType: 'player', externalId: 'chaos-failover', data: {} }, key);
  const second = await context.stack.spawnApi();
  const port = new URL(context.api.url).port;
  const instances = () => [context.api.url, second.url];
  let turn = 0;
  const traffic = startEventTraffic({
    url: () => instances()[(turn += 1) % 2]!,
    key,
    externalId: 'chaos-failover',
    eventType: 'bonus',
    data: (ref) => ({ bonus_id: ref }),
    prefix: 'failover',
    clients: context.short ? 8 : 16,
    retryPauseMs: 10,
  });
  let worstSilenceMs = 0;
  const failures: string[] = [];
  try {
    for (let kill = 0; kill < kills; kill += 1) {
      await sleep(1500);
      await context.api.kill('SIGKILL');
      const killedAt = Date.now();
      await sleep(DOWN_MS);
      const acks = traffic.ackTimes.filter((time) => time >= killedAt).sort((a, b) => a - b);
      if (acks.length === 0) failures.push(`no event acknowledged in the ${DOWN_MS} ms one instance was down`);
      let last = killedAt;
      for (const time of [...acks, killedAt + DOWN_MS]) {
        worstSilenceMs = Math.max(worstSilenceMs, time - last);
        last = time;
      }
      context.api = await context.stack.spawnApi({ PORT: port });
    }
    await sleep(1000);
  } finally {
    await traffic.stop();
    await second.kill('SIGTERM');
  }
  const counts = await storedCounts(context.db, operatorId, 'bonus_id', traffic.acked);
  failures.push(...traffic.problems);
  if (counts.unacknowledged > 0) failures.push(`${counts.unacknowledged} stored events were never acknowledged`);
  return result(
    `one of two APIs SIGKILLed x${kills}`,
    { sent: traffic.sent.size, stored: counts.stored, lost: counts.lost, duplicated: counts.duplicated, fiveXx: traffic.fiveXx, recoveryMs: worstSilenceMs },
    failures,
  );
};
