import { startLoopbackServer } from '../stack/loopbackServer';
import { post } from '../stack/stackClient';
import { eventAutomation, settleRuns } from './fixtures';
import {
  chaosOperator,
  recoveryAgainstTarget,
  result,
  sleep,
  waitUntil,
  withSurvivingWorker,
  type ChaosContext,
  type Scenario,
  type ScenarioResult,
} from './lib';

/** How long the receiver holds each POST before answering, so a kill can land while requests are in flight. */
const HOLD_MS = 1500;

/**
 * 5. Worker SIGKILL during automation runs of `trigger.event → action.delay (2 s) → action.http_request POST` to
 * a loopback receiver: the worker is killed once while the runs sit in their delay and once while their POSTs
 * are in flight, a fresh worker started each time. Every run must finish `completed` exactly once and every run's
 * POST must reach the receiver; a POST repeated by an activity retry carries the same `Idempotency-Key`, so the
 * receiver can tell it apart (the line reports those as `redelivered`).
 */
export const automationKill: Scenario = (context) => withSurvivingWorker(context, () => automationKillBesideSurvivor(context));

async function automationKillBesideSurvivor(context: ChaosContext): Promise<ScenarioResult> {
  const runs = context.short ? 3 : 10;
  const { url } = context.api;
  const { operatorId, key } = await chaosOperator(url);
  await post(url, '/operator-data-api/entities', { entityType: 'player', externalId: 'chaos-run', data: {} }, key);
  const deliveries: Array<{ idempotencyKey: string | undefined; reference: string }> = [];
  const receiver = await startLoopbackServer((request, body, response) => {
    deliveries.push({
      idempotencyKey: request.headers['idempotency-key'] as string | undefined,
      reference: (JSON.parse(body) as { reference: string }).reference,
    });
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    }, HOLD_MS);
  });
  const workflowId = await eventAutomation(url, key, 'Chaos delayed POST', 'entity_event.transaction', [
    { id: 'wait', type: 'action.delay', params: { seconds: 2 } },
    {
      id: 'notify',
      type: 'action.http_request',
      params: { method: 'POST', url: `${receiver.url}/hook`, body: { reference: '{{ trigger.data.reference }}', run: '{{ run.id }}' } },
    },
  ]);
  const failures: string[] = [];
  for (let n = 0; n < runs; n += 1) {
    await post(
      url,
      '/operator-data-api/entities/chaos-run/events',
      { eventType: 'transaction', data: { type: 'deposit', amount: 10, currency: 'EUR', reference: `r-${n}` } },
      key,
    );
  }
  await waitUntil(async () => ((await settleRunsNow(context, operatorId, workflowId)) >= runs ? true : undefined), 30_000, 'runs started', 100);
  await sleep(500);
  const firstKillAt = Date.now();
  await context.worker.kill('SIGKILL');
  context.worker = await context.stack.spawnWorker();
  await waitUntil(async () => (deliveries.length > 0 ? true : undefined), 60_000, 'first POST after the delay', 20).catch((error: Error) =>
    failures.push(error.message),
  );
  const secondKillAt = Date.now();
  await context.worker.kill('SIGKILL');
  const inFlightAtKill = deliveries.length;
  context.worker = await context.stack.spawnWorker();
  const tally = await settleRuns(context.db, operatorId, workflowId, runs, 120_000);
  const done = Date.now();
  const target = recoveryAgainstTarget(done - secondKillAt);
  if (target.failure) failures.push(target.failure);
  await sleep(HOLD_MS);
  await receiver.close();

  if (tally.runs !== runs || tally.completed !== runs) failures.push(`${runs} events, runs ${JSON.stringify(tally)}`);
  const keys = new Map<string, Set<string>>();
  for (const delivery of deliveries) {
    if (!delivery.idempotencyKey) failures.push(`a POST for ${delivery.reference} without Idempotency-Key`);
    else keys.set(delivery.idempotencyKey, (keys.get(delivery.idempotencyKey) ?? new Set()).add(delivery.reference));
  }
  for (const [idempotencyKey, references] of keys) if (references.size > 1) failures.push(`Idempotency-Key ${idempotencyKey} on ${[...references].join(', ')}`);
  const reached = new Set(deliveries.map((delivery) => delivery.reference));
  const redelivered = deliveries.length - keys.size;
  context.log(`automation kill: ${deliveries.length} POSTs (${inFlightAtKill} before the second kill), ${keys.size} distinct keys, ${redelivered} redelivered`);
  return {
    ...result(
      `worker SIGKILL in runs x${runs}`,
      {
        sent: runs,
        stored: reached.size,
        lost: runs - reached.size,
        duplicated: Math.max(0, tally.runs - runs),
        fiveXx: 0,
        recoveryMs: done - secondKillAt,
      },
      failures,
    ),
    extra: `${target.extra} redelivered=${redelivered} (same Idempotency-Key) first-kill-to-end=${((done - firstKillAt) / 1000).toFixed(1)}s`,
  };
}

async function settleRunsNow(context: Parameters<Scenario>[0], operatorId: string, workflowId: string): Promise<number> {
  const [row] = await context
    .db('automation_runs')
    .where({ operator_id: operatorId, automation_id: workflowId })
    .count<Array<{ count: string }>>({ count: '*' });
  return Number(row?.count ?? 0);
}
