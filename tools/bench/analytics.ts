/**
 * `npm run bench:analytics` (issues 6 and 45): seeds PLAYERS players (five countries and jurisdictions, registered over
 * the last year) and, for each history size of BENCH_HISTORIES (default 1,000,000; `1000000,10000000` for both), that
 * many events over 180 days set-based (85 % game rounds, 10 % deposits, 3 % withdrawals, 2 % bonuses, some failed or
 * reversed, some in USD: `eventsSql`). At each size it prints: the first catch-up of the rollups over the whole
 * history; the vacuum and analyze of the tables after it (`settle`); p50/p95 of every tile on the rollups and on the raw
 * tables (from a client process of its own, tools/bench/lib/tileClient.ts) in the same run; the cost of a catch-up pass
 * after 10,000 new events (five times, some of them late, with its costliest statements); and the peak memory of this
 * process (API and worker in one) and of PostgreSQL. Everything runs on a throw-away stack and stops by itself.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { IGAMING_TEMPLATE_ID } from '../../core/templates';
import { lastRollupTime, runRollupPass } from '../../db/queries/analyticsRollup';
import { ANALYTICS_ROLLUP_EVERY_MS } from '../../temporal/platformSchedules';
import { runJsonProcess } from './lib/load';
import { benchOperator, post, startBenchStack, type BenchStack } from './lib/stack';
import type { TileJob, TileResult } from './lib/tileClient';
import { statementTimes } from './lib/statementTimes';
import { fmt, median, percentile, say } from './lib/stats';

const HISTORIES = (process.env.BENCH_HISTORIES ?? process.env.BENCH_EVENTS ?? '1000000').split(',').map(Number);
const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 200_000);
const NEW_EVENTS = 10_000;
/** Catch-up passes after NEW_EVENTS new events at each size: their median is the figure (three before 5 December 2026). */
const CATCH_UPS = 5;
/** Statements printed per size, costliest first. */
const STATEMENTS_SHOWN = 12;
const SEED_CHUNK = 1_000_000;
const TILES = [
  '/kpis',
  '/revenue?period=daily',
  '/revenue?period=daily&range=90d',
  '/revenue?period=weekly',
  '/revenue?period=monthly',
  '/games',
  '/providers',
  '/business?range=30d',
  '/cohorts?grain=week',
  '/splits?by=country',
  '/game-health?range=30d',
];
/**
 * Requests per tile on the rollups, after `warmUp` not counted: the first requests after the catch-up pay for the API's
 * first compilation of the figure's code and PostgreSQL's cold caches of its tables (on 4 December `/kpis`, measured
 * first, had a p95 of 134 ms over 60 requests, and 19 ms at p50); the slowest of them is printed as `first`.
 */
const ROLLUP_RUN = { warmUp: 4, count: 60, concurrency: 4, timeLimitMs: 120_000 };
/**
 * Requests per tile on the raw tables (`BENCH_RAW_REQUESTS`, default 12; a few for a quick run: minutes each at 1 M;
 * 0 skips them — at 10 M most raw figures run into the statement timeout).
 */
const RAW_RUN = { warmUp: 0, count: Number(process.env.BENCH_RAW_REQUESTS ?? 12), concurrency: 2, timeLimitMs: 180_000 };
/**
 * The raw tables' statement timeout: a raw figure past it (the weekly cohorts of 180 days ran for over 15 minutes at
 * 1 M events) is printed as over it rather than holding the run.
 */
const RAW_TIMEOUT_MS = 120_000;
/** Events per second arriving during the lag phase, and for how long (`BENCH_LAG_SECONDS`, 0 skips it). */
const LAG_RATE = 2_000;
const LAG_SECONDS = Number(process.env.BENCH_LAG_SECONDS ?? 90);
/**
 * The players the lag phase's events come from, all occurring now: a casino's peak, each player's first event of the
 * day making new player-days and their next ones adding to them (before, the same 200 events' players and days came
 * back every 100 ms).
 */
const LIVE_PLAYERS = 10_000;
const SKIP_TILES = process.env.BENCH_SKIP_TILES === '1';

/**
 * Events `from`..`to` (1-based ids), arrival now. Per hundred ids: 85 game rounds (300 games, 4 % in USD), 10
 * deposits, 3 withdrawals and 2 bonuses (6 % of transactions in USD; 9 % failed, 3 % reversed), all on one day of
 * the 180: the day goes with the hundred and the type with the id within it, so every type falls on every day. A
 * transaction's player is shifted by its hundred, so the transactions reach every player (unshifted, the ids of one
 * type within the hundred repeat their players every 2,000 hundreds: 20,000 depositors at any history). `live`:
 * occurring now, from LIVE_PLAYERS of the players (the lag phase's traffic).
 */
function eventsSql(prefix: string, live: boolean): string {
  const round = 'i % 100 < 85';
  const player = live ? `1 + ((i % ${LIVE_PLAYERS}) * 7919) % :players` : `1 + (i * 7919 + CASE WHEN ${round} THEN 0 ELSE i / 100 END) % :players`;
  const occurred = live ? 'now()' : `now() - ((i / 100 * 13) % 180) * interval '1 day' - (i % 86400) * interval '1 second'`;
  return `INSERT INTO entity_events (id, operator_id, entity_id, event_type, data, created_at, occurred_at)
     SELECT '${prefix}' || i, :operatorId, 'ent_bench_' || (${player}),
            CASE WHEN ${round} THEN 'game_activity' ELSE 'transaction' END,
            CASE WHEN ${round} THEN jsonb_build_object('game_id', 'g-' || (i % 300), 'game_name', 'Game ' || (i % 300), 'bet_amount', 100 + i % 900,
                                                         'win_amount', (i * 31) % 1000, 'currency', CASE WHEN i % 23 = 0 THEN 'USD' ELSE 'EUR' END)
                 ELSE jsonb_build_object('type', CASE WHEN i % 100 < 95 THEN 'deposit' WHEN i % 100 < 98 THEN 'withdrawal' ELSE 'bonus' END,
                                         'amount', 1000 + i % 5000, 'currency', CASE WHEN i % 17 = 0 THEN 'USD' ELSE 'EUR' END,
                                         'status', CASE WHEN i % 11 = 0 THEN 'failed' WHEN i % 29 = 0 THEN 'reversed' ELSE 'completed' END,
                                         'provider', 'psp-' || (i % 4)) END,
            now(), ${occurred}
       FROM generate_series(CAST(:from AS bigint), CAST(:to AS bigint)) i`;
}

async function seedEvents(stack: BenchStack, operatorId: string, from: number, to: number, prefix = 'eev_bench_', live = false): Promise<void> {
  for (let start = from; start <= to; start += SEED_CHUNK) {
    await stack.db.raw(eventsSql(prefix, live), { operatorId, players: PLAYERS, from: start, to: Math.min(to, start + SEED_CHUNK - 1) });
  }
}

/** Passes until the rollups hold every committed event; seconds taken, events read. */
async function catchUp(stack: BenchStack): Promise<{ seconds: number; events: number; batches: number }> {
  const started = performance.now();
  let events = 0;
  let batches = 0;
  for (;;) {
    const pass = await runRollupPass(stack.db);
    events += pass.events;
    batches += pass.batches;
    if (pass.complete && pass.refreshedAt) break;
  }
  return { seconds: (performance.now() - started) / 1000, events, batches };
}

type TileRun = { p50: number; p95: number; n: number; first?: number; over?: boolean };

/** `path`'s latencies from a client process of its own (tools/bench/lib/tileClient.ts): this one runs the API and the worker. */
async function tile(stack: BenchStack, key: string, path: string, rollups: boolean): Promise<TileRun> {
  const job: TileJob = { url: stack.url, apiKey: key, path, rollups, ...(rollups ? ROLLUP_RUN : RAW_RUN) };
  const run = await runJsonProcess<TileResult>(join(__dirname, 'lib', 'tileClient.ts'), job, `${path}: the figure client`);
  return { p50: percentile(run.latencies, 50), p95: percentile(run.latencies, 95), n: run.latencies.length, first: run.warmUp.at(-1), over: run.over };
}

const shown = (run: TileRun) =>
  run.over
    ? `over ${RAW_TIMEOUT_MS / 1000} s (cancelled)`.padStart(30)
    : `p50 ${fmt(run.p50).padStart(8)} p95 ${fmt(run.p95).padStart(8)} ms (n=${run.n}${run.first === undefined ? '' : `; first ${fmt(run.first, 0)} ms`})`;

/** Resident memory (MiB) of PostgreSQL's postmaster and its children, sampled. */
function postgresRssMiB(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const out = execFileSync('ps', ['-o', 'rss=', '--ppid', String(pid), '-p', String(pid)], { encoding: 'utf8' });
    return out.split('\n').reduce((sum, line) => sum + (Number(line.trim()) || 0), 0) / 1024;
  } catch {
    return NaN;
  }
}

/** p50/p95 of every tile on the rollups (each printed when measured), then on the raw tables (the watermark removed), then the watermark back. */
async function tiles(stack: BenchStack, apiKey: string): Promise<void> {
  const rollups: TileRun[] = [];
  for (const path of TILES) {
    rollups.push(await tile(stack, apiKey, path, true));
    say(`${path.padEnd(34)} rollups ${shown(rollups[rollups.length - 1]!)}`);
  }
  if (RAW_RUN.count === 0) return;
  await stack.db('analytics_refreshes').del();
  for (const [i, path] of TILES.entries()) {
    const raw = await tile(stack, apiKey, path, false);
    say(`${path.padEnd(34)} rollups ${shown(rollups[i]!)}   raw ${shown(raw)}`);
  }
  await catchUp(stack);
}

/**
 * Ingest at LAG_RATE events/s (200 every 100 ms, set-based; occurring now, from LIVE_PLAYERS players) while a pass runs
 * every ANALYTICS_ROLLUP_EVERY_MS as the Schedule would; samples, each second, how old the watermark is (figures hold every event committed before it).
 */
async function lagUnderLoad(stack: BenchStack, operatorId: string, history: number): Promise<void> {
  const lags: number[] = [];
  const begin = performance.now();
  const deadline = begin + LAG_SECONDS * 1000;
  let inserted = 0;
  const ingest = async (): Promise<void> => {
    for (let tick = 0; performance.now() < deadline; tick += 1) {
      const due = begin + tick * 100;
      if (performance.now() < due) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
      await seedEvents(stack, operatorId, tick * (LAG_RATE / 10) + 1, (tick + 1) * (LAG_RATE / 10), `eev_lag_${history}_`, true);
      inserted += LAG_RATE / 10;
    }
  };
  const schedule = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const started = performance.now();
      await runRollupPass(stack.db, { maxBatches: 20 });
      const rest = Math.min(ANALYTICS_ROLLUP_EVERY_MS - (performance.now() - started), deadline - performance.now());
      if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
    }
  };
  const sample = async (): Promise<void> => {
    while (performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const at = await lastRollupTime(stack.db);
      if (at) lags.push((Date.now() - at.getTime()) / 1000);
    }
  };
  await Promise.all([ingest(), schedule(), sample()]);
  lags.sort((a, b) => a - b);
  const seconds = (performance.now() - begin) / 1000;
  say(
    `lag while ${fmt(inserted / seconds, 0)} events/s arrived for ${fmt(seconds, 0)} s (a pass every ${ANALYTICS_ROLLUP_EVERY_MS / 1000} s): watermark age p50 ${fmt(percentile(lags, 50), 1)} s, p95 ${fmt(percentile(lags, 95), 1)} s, max ${fmt(lags[lags.length - 1] ?? NaN, 1)} s`,
  );
  await catchUp(stack);
}

/**
 * The catch-up pass after NEW_EVENTS new events, CATCH_UPS times: measured before the tiles, so a long run prints it
 * early. The statements the passes ran are timed (`statementTimes`) and the costliest printed with their sum, so two
 * sizes' passes can be compared statement by statement.
 */
async function catchUpAfterNew(stack: BenchStack, operatorId: string, history: number): Promise<void> {
  const passes: number[] = [];
  const statements = statementTimes(stack.db);
  try {
    for (let round = 0; round < CATCH_UPS; round += 1) {
      await seedEvents(stack, operatorId, 1, NEW_EVENTS, `eev_new_${history}_${round}_`);
      statements.start();
      const pass = await catchUp(stack);
      statements.stop();
      if (pass.events !== NEW_EVENTS) throw new Error(`catch-up read ${pass.events} events, not ${NEW_EVENTS}`);
      passes.push(pass.seconds * 1000);
    }
  } finally {
    statements.close();
  }
  say(`catch-up after ${NEW_EVENTS.toLocaleString('en')} new events: ${passes.map((ms) => fmt(ms, 0)).join(', ')} ms (median ${fmt(median(passes), 0)} ms)`);
  const { top, totalMs } = statements.report(STATEMENTS_SHOWN);
  say(
    `  statements of the ${CATCH_UPS} passes: ${fmt(totalMs, 0)} ms in all (the passes ${fmt(
      passes.reduce((sum, ms) => sum + ms, 0),
      0,
    )} ms); the costliest:`,
  );
  for (const entry of top) say(`  ${fmt(entry.ms / CATCH_UPS, 0).padStart(6)} ms a pass (${entry.calls} calls)  ${entry.label}`);
}

/**
 * Vacuums and analyzes the rollups and the event tables after the first catch-up. Left to autovacuum, that work runs in
 * the minutes after a bulk fold, beside whatever is measured then: in run o (5 December 2026) its analyzes of the game,
 * provider and gap rollups fell on the 10 M tiles and doubled their p95. An operator's steady stream keeps them
 * vacuumed as it goes; the timed phases measure that state.
 */
async function settle(stack: BenchStack): Promise<{ tables: number; seconds: number }> {
  const started = performance.now();
  const { rows } = await stack.db.raw<{ rows: Array<{ name: string }> }>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'
        AND (tablename LIKE 'analytics\\_%' OR tablename IN ('entities', 'entity_events', 'outbox_events')) ORDER BY 1`,
  );
  for (const { name } of rows) await stack.db.raw('VACUUM (ANALYZE) ??', [name]);
  return { tables: rows.length, seconds: (performance.now() - started) / 1000 };
}

async function measureAt(stack: BenchStack, operatorId: string, apiKey: string, history: number, seeded: number): Promise<void> {
  say(`\n== history ${history.toLocaleString('en')} events ==`);
  const seeding = performance.now();
  await seedEvents(stack, operatorId, seeded + 1, history);
  await stack.db.raw('ANALYZE entities, entity_events');
  say(`seeded ${(history - seeded).toLocaleString('en')} events in ${fmt((performance.now() - seeding) / 1000, 1)} s`);
  const first = await catchUp(stack);
  say(
    `first catch-up (all new history): ${fmt(first.seconds, 1)} s, ${first.events} events in ${first.batches} batches, ${fmt(first.events / first.seconds, 0)} events/s`,
  );

  const vacuumed = await settle(stack);
  say(`vacuumed and analyzed ${vacuumed.tables} tables in ${fmt(vacuumed.seconds, 1)} s (autovacuum's work after the fold, done before the timed phases)`);
  await catchUpAfterNew(stack, operatorId, history);
  if (!SKIP_TILES) await tiles(stack, apiKey);
  if (LAG_SECONDS > 0) await lagUnderLoad(stack, operatorId, history);
}

async function main(): Promise<void> {
  say('starting PostgreSQL, Temporal, worker and API…');
  // The raw tables' tiles take tens of seconds at 1 M events: the statement timeout is raised so they are measured (up to RAW_TIMEOUT_MS).
  const stack = await startBenchStack({
    RATE_LIMIT_ANALYTICS_READ: '1000000',
    RATE_LIMIT_ANALYTICS_REFRESH: '1000',
    ANALYTICS_STATEMENT_TIMEOUT_MS: String(RAW_TIMEOUT_MS),
  });
  let peakNode = 0;
  let peakPostgres = 0;
  const sampler = setInterval(() => {
    peakNode = Math.max(peakNode, process.memoryUsage().rss / 2 ** 20);
    peakPostgres = Math.max(peakPostgres, postgresRssMiB(stack.pids.postgres) || 0);
  }, 1000);
  try {
    const { operatorId, apiKey } = await benchOperator(stack.url);
    await post(stack.url, '/operator-data-api/settings', { templateId: IGAMING_TEMPLATE_ID, reportingCurrency: 'EUR' }, apiKey, 'PUT');
    await stack.db.raw(
      `INSERT INTO entities (id, operator_id, entity_type, external_id, data, created_at, updated_at)
       SELECT 'ent_bench_' || i, ?, 'player', 'player-' || i,
              jsonb_build_object('country', (ARRAY['GB', 'DE', 'MT', 'SE', 'CA'])[1 + i % 5], 'jurisdiction', (ARRAY['GB', 'DE', 'MT', 'SE', 'CA-ON'])[1 + i % 5]),
              now() - ((i * 37) % 365) * interval '1 day', now()
         FROM generate_series(1, ?) i`,
      [operatorId, PLAYERS],
    );
    say(
      `${PLAYERS.toLocaleString('en')} players; tiles: ${ROLLUP_RUN.count} requests on the rollups (${ROLLUP_RUN.concurrency} concurrent), up to ${RAW_RUN.count} on the raw tables (${RAW_RUN.concurrency} concurrent)`,
    );
    let seeded = 0;
    for (const history of HISTORIES) {
      await measureAt(stack, operatorId, apiKey, history, seeded);
      seeded = history;
    }
    say(`\npeak RSS: API+worker process ${fmt(peakNode, 0)} MiB, PostgreSQL (all backends) ${fmt(peakPostgres, 0)} MiB`);
  } finally {
    clearInterval(sampler);
    await stack.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${(error as Error).stack}\n`);
  process.exit(1);
});
