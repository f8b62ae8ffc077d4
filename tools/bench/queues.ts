/**
 * `npm run bench:queues`: gateway GET latency (p50/p99, 4 concurrent callers to the loopback supplier) alone and while
 * 100,000 events ingest as 20 batches of 5,000 (four times over), once with every workflow on one task queue (`TEMPORAL_SPLIT_QUEUES=false`,
 * the shape before the split) and once with batch work on the background queue (the default), side by side. Each mode
 * gets its own throw-away stack (embedded PostgreSQL, Temporal, in-process worker polling both queues, API), one after
 * the other; loopback only; bounded in time; stops everything by itself. `BENCH_QUEUES_MODES=split` runs one mode.
 */
import { IGAMING_TEMPLATE_ID } from '../../core/templates';
import { startSupplier } from '../stack/loopbackSupplier';
import { runBench } from './lib/baseline';
import { supplierConnection, benchOperator, post, startBenchStack } from './lib/stack';
import { fmt, measure, percentile, say, type Measured } from './lib/stats';

const BATCHES = 20;
const BATCH_SIZE = 5000;
/** One 100,000-event ingest lasts a few seconds here: several give the p99 enough samples. */
const ROUNDS = 4;
const PLAYERS = 200;
const CONCURRENCY = 4;
const ALONE_REQUESTS = 400;
const INGEST_TIME_LIMIT_MS = 240_000;
/** The worker's pool and the slot sizing (`worker/workerGroup.ts`) read the same figure. */
const POOL = '30';

type Mode = 'one queue' | 'split';

interface Figures {
  mode: Mode;
  alone: Measured;
  duringIngest: Measured;
  ingestSeconds: number;
}

const row = (name: string, phase: Measured) =>
  `${name.padEnd(28)} ${String(phase.latencies.length).padStart(8)} ${fmt(percentile(phase.latencies, 50), 2).padStart(8)} ${fmt(percentile(phase.latencies, 99), 2).padStart(9)}`;

async function jobsDone(url: string, key: string, jobIds: string[]): Promise<boolean> {
  for (const id of jobIds) {
    const response = await fetch(`${url}/operator-data-api/batch/jobs/${id}`, { headers: { authorization: `Bearer ${key}` } });
    const job = (await response.json()) as { data: { status: string; error: string | null; output: { failed: number } | null } };
    if (job.data.status === 'failed') throw new Error(`job ${id} failed: ${job.data.error}`);
    if (job.data.output?.failed) throw new Error(`job ${id} rejected ${job.data.output.failed} items`);
    if (job.data.status !== 'completed') return false;
  }
  return true;
}

async function runMode(mode: Mode, supplierUrl: string): Promise<Figures> {
  say(`${mode}: starting PostgreSQL, Temporal, worker and API…`);
  const stack = await startBenchStack({
    GATEWAY_ALLOW_PRIVATE_NETWORKS: 'true',
    DATABASE_POOL_MAX: POOL,
    TEMPORAL_SPLIT_QUEUES: mode === 'split' ? 'true' : 'false',
  });
  try {
    const { apiKey: key } = await benchOperator(stack.url);
    const connectionId = await supplierConnection(stack.url, key, supplierUrl, 'bench');
    const gatewayGet = async () => {
      const answer = await fetch(`${stack.url}/gateway`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ connectionId, operation: 'kyc.status', params: { playerId: 'p-1' } }),
      });
      if (!answer.ok) throw new Error(`gateway: HTTP ${answer.status} ${(await answer.text()).slice(0, 200)}`);
      await answer.arrayBuffer();
    };
    await post(stack.url, '/operator-data-api/settings', { templateId: IGAMING_TEMPLATE_ID }, key, 'PUT');
    const players = Array.from({ length: PLAYERS }, (_, i) => ({ entityType: 'player', externalId: `player-${i}`, data: { country: 'GB' } }));
    const seeded = await post(stack.url, '/operator-data-api/batch/entities', players, key);
    while (!(await jobsDone(stack.url, key, [seeded.data.jobId as string]))) await new Promise((resolve) => setTimeout(resolve, 100));
    say(`${mode}: warming up, then gateway GETs alone…`);
    await measure(gatewayGet, { count: 100, concurrency: CONCURRENCY, timeLimitMs: 30_000 });
    const alone = await measure(gatewayGet, { count: ALONE_REQUESTS, concurrency: CONCURRENCY, timeLimitMs: 45_000 });
    say(`${mode}: ${ROUNDS} rounds of ${BATCHES} × ${BATCH_SIZE} events, gateway GETs from the first upload until every job completes…`);
    const latencies: number[] = [];
    let ingestSeconds = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const started = performance.now();
      let done = false;
      const lane = async () => {
        while (!done) {
          const begin = performance.now();
          await gatewayGet();
          latencies.push(performance.now() - begin);
        }
      };
      const lanes = Promise.all(Array.from({ length: CONCURRENCY }, lane));
      try {
        const jobIds = await Promise.all(
          Array.from({ length: BATCHES }, async (_, batch) => {
            const events = Array.from({ length: BATCH_SIZE }, (_, i) => ({
              externalId: `player-${(batch * BATCH_SIZE + i) % PLAYERS}`,
              eventType: 'transaction',
              data: { type: 'deposit', amount: 1000 + i, currency: 'EUR', status: 'completed', provider: `psp-${round}` },
            }));
            return (await post(stack.url, '/operator-data-api/batch/events', events, key)).data.jobId as string;
          }),
        );
        while (!(await jobsDone(stack.url, key, jobIds))) {
          if (performance.now() - started > INGEST_TIME_LIMIT_MS)
            throw new Error(`${mode}: the batches did not complete within ${INGEST_TIME_LIMIT_MS / 1000} s`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        done = true;
        await lanes;
      }
      ingestSeconds += (performance.now() - started) / 1000;
    }
    const duringIngest: Measured = { latencies: latencies.sort((a, b) => a - b), seconds: ingestSeconds };
    return { mode, alone, duringIngest, ingestSeconds };
  } finally {
    await stack.stop();
  }
}

async function main(): Promise<void> {
  const modes = (process.env.BENCH_QUEUES_MODES ?? 'one queue,split').split(',').map((mode) => mode.trim()) as Mode[];
  const supplier = await startSupplier();
  const figures: Figures[] = [];
  try {
    for (const mode of modes) figures.push(await runMode(mode, supplier.url));
  } finally {
    await supplier.close();
  }
  say('');
  say(`gateway GET (${CONCURRENCY} concurrent)       requests   p50 ms    p99 ms`);
  for (const figure of figures) {
    say(row(`${figure.mode}: alone`, figure.alone));
    say(row(`${figure.mode}: during ingest`, figure.duringIngest));
  }
  say('');
  const events = ROUNDS * BATCHES * BATCH_SIZE;
  for (const figure of figures)
    say(`${figure.mode.padEnd(10)} ${events} events ingested in ${fmt(figure.ingestSeconds)} s (${fmt(events / figure.ingestSeconds, 0)} events/s)`);
}

runBench(main);
