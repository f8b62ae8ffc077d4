/**
 * `npm run bench:ingest`:
 *  (a) events/s for 20 batches of 5,000 events through HTTP until their jobs complete, beside
 *  (b) the same rows inserted straight into PostgreSQL, one multi-row INSERT per 5,000 (target a/b ≥ 0.5);
 *  (c) single `POST /entities/:id/events` requests/s and p50/p99 at 32 concurrent connections, beside
 *  (d) a bare Koa handler doing one pg INSERT of the same row into the same database (target c/d ≥ 0.7,
 *      p99 ≤ 3× p50), each API round next to its bare round (first and second in turns), with the CPU each request
 *      costs per process; and after both in each round the gap layer by layer (tools/bench/lib/ingestLadder.ts): the
 *      platform's statement alone, one per event and grouped, then its use case.
 * Everything runs on a throw-away stack on loopback and stops by itself.
 */
import { randomBytes } from 'node:crypto';
import { IGAMING_TEMPLATE_ID } from '../../core/templates';
import type { Db } from '../../db/knex';
import { runBench } from './lib/baseline';
import { startBareIngest } from './lib/bareIngest';
import { LADDER, startLadderRung, type LadderRung } from './lib/ingestLadder';
import { cpuMeter, formatCpu } from './lib/cpu';
import { startProfile } from './lib/profile';
import { runLoad, type LoadResult } from './lib/load';
import { benchOperator, post, startBenchStack } from './lib/stack';
import { fmt, median, say } from './lib/stats';

const BATCHES = 20;
const BATCH_SIZE = 5000;
const PLAYERS = 1000;
const SECONDS_PER_ROUND = 4;
/** Alternating rounds: this machine's speed drifts by ±20 % over seconds, so the ratio is taken per adjacent pair. */
const ROUNDS = 5;
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

const pendingOutbox = async (db: Db) => Number((await db('outbox_events').whereNull('dispatched_at').count<{ n: string }[]>({ n: '*' }))[0]?.n ?? 0);

/** Waits until the dispatcher has settled every outbox row (deposits wait for their harm check), so no backlog spills into the next phase. */
async function settled(db: Db): Promise<void> {
  const deadline = Date.now() + 600_000;
  while ((await pendingOutbox(db)) > 0) {
    if (Date.now() > deadline) throw new Error('the outbox never settled');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Single-event POSTs at CONCURRENCY from the load-generator process, cycling over the players. */
const singleEvents = (baseUrl: string, apiKey: string | null, seconds: number) =>
  runLoad({
    url: baseUrl,
    method: 'POST',
    connections: CONCURRENCY,
    seconds,
    headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
    variants: Array.from({ length: PLAYERS }, (_, i) => {
      const event = eventFor(i * 7);
      return { path: `/operator-data-api/entities/${event.externalId}/events`, body: JSON.stringify({ eventType: event.eventType, data: event.data }) };
    }),
  });

interface Round extends LoadResult {
  cpu: Record<string, number>;
}

/** Requests/s over all rounds; latency percentiles as the median of the rounds' own. */
const merge = (rounds: Round[]) => {
  const count = rounds.reduce((sum, round) => sum + round.requests, 0);
  const seconds = rounds.reduce((sum, round) => sum + round.seconds, 0);
  const cpu = Object.fromEntries(
    Object.keys(rounds[0]?.cpu ?? {}).map((name) => [name, rounds.reduce((sum, round) => sum + (round.cpu[name] ?? 0), 0) / rounds.length]),
  );
  return { rps: count / seconds, p50: median(rounds.map((round) => round.p50)), p99: median(rounds.map((round) => round.p99)), count, cpu };
};

/** The median over rounds of a round's requests/s against the bare round just before it. */
const medianPairRatio = (rounds: Round[], bare: Round[]) => median(rounds.map((round, i) => round.rps / (bare[i]?.rps ?? NaN)));

/** One more round under the CPU profiler; its one-line summary. */
async function profiled(name: string, round: () => Promise<Round>): Promise<string> {
  const profiling = await startProfile();
  const result = await round();
  return profiling.stop(name, result.requests);
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
    const jobIds = await Promise.all(
      batches.map(async (batch) => (await post(stack.url, '/operator-data-api/batch/events', batch, apiKey)).data.jobId as string),
    );
    const submitSeconds = (performance.now() - startedA) / 1000;
    await waitForJobs(stack.url, apiKey, jobIds);
    const secondsA = (performance.now() - startedA) / 1000;
    const deposits = await pendingOutbox(stack.db);
    await settled(stack.db);
    const secondsChecked = (performance.now() - startedA) / 1000 - secondsA;

    say('(b) baseline: the same rows, one multi-row INSERT per 5,000, straight into PostgreSQL…');
    const ids = await stack.db('entities').where({ operator_id: operatorId }).select('id', 'external_id');
    const entityOf = new Map<string, string>(ids.map((row: { id: string; external_id: string }) => [row.external_id, row.id]));
    const startedB = performance.now();
    for (const batch of batches) {
      await stack.db('entity_events').insert(
        batch.map((event) => ({
          id: `eev_${randomBytes(16).toString('hex')}`,
          operator_id: operatorId,
          entity_id: entityOf.get(event.externalId),
          event_type: event.eventType,
          data: JSON.stringify(event.data),
        })),
      );
    }
    const secondsB = (performance.now() - startedB) / 1000;

    say(`(c, d) single events at ${CONCURRENCY} concurrent connections: the API and a bare Koa + pg INSERT, ${ROUNDS} alternating rounds…`);
    const bare = await startBareIngest({ databaseUrl: stack.databaseUrl, operatorId, entityIds: entityOf, poolMax: 30 });
    const run = async (target: string, key: string | null, seconds: number): Promise<Round> => {
      const meter = cpuMeter({ api: { pid: stack.pids.node, tree: false }, postgres: { pid: stack.pids.postgres, tree: true } });
      const result = await singleEvents(target, key, seconds);
      return { ...result, cpu: meter.perOperation(result.requests) };
    };
    await run(stack.url, apiKey, 2);
    await run(bare.url, null, 2);
    const rungs = Object.fromEntries(await Promise.all(LADDER.map(async (rung) => [rung, await startLadderRung(rung, stack.deps, operatorId)] as const)));
    const apiRounds: Round[] = [];
    const bareRounds: Round[] = [];
    const backlogs: Array<{ rows: number; seconds: number }> = [];
    const ladder = Object.fromEntries(LADDER.map((rung) => [rung, [] as Round[]])) as Record<LadderRung, Round[]>;
    const apiRound = async () => {
      apiRounds.push(await run(stack.url, apiKey, SECONDS_PER_ROUND));
      const backlog = await pendingOutbox(stack.db);
      const settling = performance.now();
      await settled(stack.db);
      backlogs.push({ rows: backlog, seconds: (performance.now() - settling) / 1000 });
    };
    for (let round = 0; round < ROUNDS; round += 1) {
      // The API's round next to its bare round, first and second in turns; the ladder's rungs after both.
      if (round % 2 === 0) bareRounds.push(await run(bare.url, null, SECONDS_PER_ROUND));
      await apiRound();
      if (round % 2 === 1) bareRounds.push(await run(bare.url, null, SECONDS_PER_ROUND));
      for (const rung of LADDER) {
        ladder[rung].push(await run(rungs[rung]!.url, null, SECONDS_PER_ROUND));
        await settled(stack.db);
      }
    }
    await Promise.all(LADDER.map((rung) => rungs[rung]!.close()));
    const profile = await profiled('ingest-single-events-api', () => run(stack.url, apiKey, SECONDS_PER_ROUND / 2));
    const bareProfile = await profiled('ingest-single-events-bare', () => run(bare.url, null, SECONDS_PER_ROUND / 2));
    await bare.close();

    const total = BATCHES * BATCH_SIZE;
    const rateA = total / secondsA;
    const rateB = total / secondsB;
    const api = merge(apiRounds);
    const floor = merge(bareRounds);
    say('');
    say(`(a) HTTP batches → jobs completed:   ${fmt(rateA, 0)} events/s  (${total} events in ${fmt(secondsA, 2)} s, incl. outbox rows)`);
    say(`(b) direct multi-row INSERT baseline: ${fmt(rateB, 0)} events/s  (${total} events in ${fmt(secondsB, 2)} s)`);
    say(`    of which submitting the ${BATCHES} requests (202): ${fmt(submitSeconds, 2)} s`);
    say(`    ratio a/b = ${fmt(rateA / rateB, 2)}  (target ≥ 0.5)`);
    say(`    the ${deposits} deposits still pending then were checked for harm indicators and settled ${fmt(secondsChecked, 2)} s later`);
    say(`(c) single events, API:           ${fmt(api.rps, 0)} req/s, p50 ${fmt(api.p50)} ms, p99 ${fmt(api.p99)} ms (${api.count} requests)`);
    say(`(d) bare Koa + one pg INSERT:      ${fmt(floor.rps, 0)} req/s, p50 ${fmt(floor.p50)} ms, p99 ${fmt(floor.p99)} ms (${floor.count} requests)`);
    const pairRatios = apiRounds.map((round, i) => round.rps / (bareRounds[i]?.rps ?? NaN)).sort((a, b) => a - b);
    const medianRatio = medianPairRatio(apiRounds, bareRounds);
    say(
      `    ratio c/d = ${fmt(medianRatio, 2)}, the median of ${ROUNDS} adjacent pairs (${pairRatios.map((ratio) => fmt(ratio, 2)).join(', ')}) (target ≥ 0.7)`,
    );
    say(`    API p99/p50 = ${fmt(api.p99 / api.p50, 1)}  (target ≤ 3)`);
    const sustained = medianPairRatio(
      apiRounds.map((round, i) => ({ ...round, rps: round.requests / (round.seconds + (backlogs[i]?.seconds ?? 0)) })),
      bareRounds,
    );
    say(
      `    outbox rows still pending as each API round ended (deposits awaiting the harm check): ${backlogs.map((b) => `${b.rows} (settled in ${fmt(b.seconds, 2)} s)`).join(', ')}; counting that time in the round: ${fmt(sustained, 2)}`,
    );
    say("    the gap, layer by layer (each rung a bare Koa server on the API's own pool and caches, in the same rounds; ratio to the bare INSERT):");
    const rungLine = (label: string, rounds: Round[]) => {
      const merged = merge(rounds);
      say(`      ${label.padEnd(52)} ${fmt(merged.rps, 0).padStart(6)} req/s  ${fmt(medianPairRatio(rounds, bareRounds), 2)}  CPU ${formatCpu(merged.cpu)}`);
    };
    rungLine('bare INSERT (entity id known)', bareRounds);
    rungLine('the entity resolved in the INSERT, platform pool', ladder.event);
    rungLine('+ its outbox row, written settled', ladder.outbox);
    rungLine('+ deposits pending for the harm check (insertEvent)', ladder.statement);
    rungLine('+ events arriving together in one statement', ladder.grouped);
    rungLine('+ template, validation and sealing (recordEvent)', ladder.command);
    rungLine('+ HTTP layers: the whole API', apiRounds);
    say(`    CPU per request — API: ${formatCpu(api.cpu)}; bare: ${formatCpu(floor.cpu)}`);
    say(`    profiled rounds — API: ${profile}`);
    say(`                      bare: ${bareProfile}`);
    say('    (api: the process serving the requests, with the in-process worker and event dispatcher as npm start runs it; postgres: the');
    say('     server and its backends; the load comes from a separate autocannon process)');
  } finally {
    await stack.stop();
  }
}

runBench(main);
