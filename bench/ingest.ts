/**
 * `npm run bench:ingest` (issue 3):
 *  (a) events/s for 20 batches of 5,000 events through HTTP until their jobs complete;
 *  (b) the baseline: the same rows inserted straight into PostgreSQL, one multi-row INSERT per 5,000;
 *  and the ratio a/b (target ≥ 0.5);
 *  (c) single `POST /entities/:id/events` requests/s and p50/p99 at 32 concurrent connections.
 * Everything runs on a throw-away stack on loopback and stops by itself.
 */
import { randomBytes } from 'node:crypto';
import { IGAMING_TEMPLATE_ID } from '../core/templates';
import { benchOperator, post, startBenchStack } from './lib/stack';
import { fmt, measure, percentile, say } from './lib/stats';

const BATCHES = 20;
const BATCH_SIZE = 5000;
const PLAYERS = 1000;
const SINGLE_REQUESTS = 4000;
const CONCURRENCY = 32;

const eventFor = (i: number) => ({
  externalId: `player-${i % PLAYERS}`,
  eventType: 'transaction',
  data: { type: i % 3 === 0 ? 'withdrawal' : 'deposit', amount: 1000 + (i % 5000), currency: 'EUR', status: 'completed', provider: `psp-${i % 4}` },
});

async function waitForJobs(url: string, key: string, jobIds: string[]): Promise<void> {
  const deadline = Date.now() + 600_000;
  const pending = new Set(jobIds);
  while (pending.size > 0) {
    if (Date.now() > deadline) throw new Error(`${pending.size} jobs still running`);
    for (const id of [...pending]) {
      const response = await fetch(`${url}/operator-data-api/batch/jobs/${id}`, { headers: { authorization: `Bearer ${key}` } });
      const job = (await response.json()) as { data: { status: string; error: string | null; output: { failed: number } } };
      if (job.data.status === 'failed') throw new Error(`job ${id} failed: ${job.data.error}`);
      if (job.data.status === 'completed') {
        if (job.data.output.failed > 0) throw new Error(`job ${id} rejected ${job.data.output.failed} items`);
        pending.delete(id);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function main(): Promise<void> {
  say('starting PostgreSQL, Temporal, worker and API…');
  const stack = await startBenchStack();
  try {
    const { operatorId, apiKey } = await benchOperator(stack.url);
    await post(stack.url, '/operator-data-api/settings', { templateId: IGAMING_TEMPLATE_ID }, apiKey, 'PUT');
    const players = Array.from({ length: PLAYERS }, (_, i) => ({ entityType: 'player', externalId: `player-${i}`, data: { country: 'GB' } }));
    const seeded = await post(stack.url, '/operator-data-api/batch/entities', players, apiKey);
    await waitForJobs(stack.url, apiKey, [seeded.data.jobId]);
    const batches = Array.from({ length: BATCHES }, (_, b) => Array.from({ length: BATCH_SIZE }, (_, i) => eventFor(b * BATCH_SIZE + i)));

    say(`(a) ${BATCHES} batches × ${BATCH_SIZE} events through HTTP and Temporal…`);
    const startedA = performance.now();
    const jobIds = await Promise.all(batches.map(async (batch) => (await post(stack.url, '/operator-data-api/batch/events', batch, apiKey)).data.jobId as string));
    const submitSeconds = (performance.now() - startedA) / 1000;
    await waitForJobs(stack.url, apiKey, jobIds);
    const secondsA = (performance.now() - startedA) / 1000;

    say('(b) baseline: the same rows, one multi-row INSERT per 5,000, straight into PostgreSQL…');
    const ids = await stack.db('entities').where({ operator_id: operatorId }).select('id', 'external_id');
    const entityOf = new Map(ids.map((row: { id: string; external_id: string }) => [row.external_id, row.id]));
    const startedB = performance.now();
    for (const batch of batches) {
      await stack.db('entity_events').insert(batch.map((event) => ({
        id: `eev_${randomBytes(16).toString('hex')}`, operator_id: operatorId, entity_id: entityOf.get(event.externalId), event_type: event.eventType, data: JSON.stringify(event.data),
      })));
    }
    const secondsB = (performance.now() - startedB) / 1000;

    say(`(c) single POST /entities/:id/events at ${CONCURRENCY} concurrent connections…`);
    let n = 0;
    const single = await measure(async () => {
      const event = eventFor(n++);
      const response = await fetch(`${stack.url}/operator-data-api/entities/${event.externalId}/events`, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` }, body: JSON.stringify({ eventType: event.eventType, data: event.data }),
      });
      await response.arrayBuffer();
      if (response.status !== 201) throw new Error(`single event: HTTP ${response.status}`);
    }, { count: SINGLE_REQUESTS, concurrency: CONCURRENCY, timeLimitMs: 120_000 });

    const total = BATCHES * BATCH_SIZE;
    const rateA = total / secondsA;
    const rateB = total / secondsB;
    say('');
    say(`(a) HTTP batches → jobs completed:   ${fmt(rateA, 0)} events/s  (${total} events in ${fmt(secondsA, 2)} s, incl. outbox rows)`);
    say(`(b) direct multi-row INSERT baseline: ${fmt(rateB, 0)} events/s  (${total} events in ${fmt(secondsB, 2)} s)`);
    say(`    of which submitting the ${BATCHES} requests (202): ${fmt(submitSeconds, 2)} s`);
    say(`    ratio a/b = ${fmt(rateA / rateB, 2)}  (target ≥ 0.5)`);
    say(`(c) single events: ${fmt(single.latencies.length / single.seconds, 0)} req/s, p50 ${fmt(percentile(single.latencies, 50))} ms, p99 ${fmt(percentile(single.latencies, 99))} ms (${single.latencies.length} requests, ${CONCURRENCY} concurrent)`);
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${(error as Error).stack}\n`);
  process.exit(1);
});
