import { monitorEventLoopDelay } from 'node:perf_hooks';
import { detail, type GoalRow } from './dispatchReport';
import { backlogOf, settledRuns } from './dispatchProbe';
import { playerId, transaction, type DispatchContext, type DispatchTenant } from './dispatchSetup';
import { runLoad, type LoadResult } from './load';
import { startProfile } from './profile';
import { cpuMeter, formatCpu } from './cpu';
import { fmt, median } from './stats';
import { until } from './waitForEvent';

/** As `bench:ingest` loads single events: the floor and the ladder's offered rates go through the same connections. */
export const CONNECTIONS = 32;
/** Amounts 1…LISTENING match one automation each; every other event carries an amount no filter takes. */
export const LISTENING = 200;
const MATCH_EVERY = 100;
const FLOOR_SECONDS = 5;
const PLAYERS = 200;
/** After a window, how long its backlog may take to drain (at least) before the ladder gives up on the rung. */
const SETTLE_MS = 60_000;

export interface FilteringOptions {
  windowS: number;
  rates: number[];
  /** Profile this process's main thread over the first floor and each rung (DISPATCH_PROFILE=1). */
  profile: boolean;
  /** False: no event matches a filter (DISPATCH_NO_MATCH=1), so a rung costs the passes without the runs. */
  matching: boolean;
  /** The stack's processes, whose CPU per event each floor and rung prints. */
  cpu: Parameters<typeof cpuMeter>[0];
}

/**
 * Runs `body` and prints the CPU per event of the stack's processes over it (on the dev topology `node` holds the API,
 * the worker and the dispatcher) and, when `profile`, where this process's main thread spent it.
 */
async function profiled(name: string, options: FilteringOptions, body: () => Promise<LoadResult>): Promise<LoadResult> {
  const profiling = options.profile ? await startProfile(undefined, 14) : undefined;
  const meter = cpuMeter(options.cpu);
  const result = await body();
  detail(`${name}: CPU per event ${formatCpu(meter.perOperation(result.requests))}`);
  if (profiling) detail(`${name}: ${await profiling.stop(name, result.requests)}`);
  return result;
}

interface Rung {
  rate: number;
  load: LoadResult;
  backlog: number[];
  expected: number;
  started: number;
  growing: boolean;
  drainedS: number | undefined;
  /** This process's event-loop delay over the rung. */
  loopMs: { p50: number; p99: number };
}

/** 1 % of the events match one of the LISTENING filters, spread over them, the rest none; with `matching` false, none does. */
const variantsOf = (matching: boolean) =>
  Array.from({ length: MATCH_EVERY * LISTENING }, (_, i) => {
    const amount = matching && i % MATCH_EVERY === 0 ? 1 + ((i / MATCH_EVERY) % LISTENING) : 100_000 + i;
    const { eventType, data } = transaction(amount);
    return { path: `/operator-data-api/entities/${playerId(i % PLAYERS)}/events`, body: JSON.stringify({ eventType, data }) };
  });
const variants = { matching: variantsOf(true), none: variantsOf(false) };

export const FILTERING_PLAYERS = PLAYERS;

const load = (ctx: DispatchContext, tenant: DispatchTenant, seconds: number, overallRate?: number, matching = true) =>
  runLoad(
    {
      url: ctx.url,
      method: 'POST',
      connections: CONNECTIONS,
      seconds,
      headers: { authorization: `Bearer ${tenant.apiKey}` },
      variants: matching ? variants.matching : variants.none,
      overallRate,
    },
    { tolerateFailures: true },
  );

/** Events of the tenant whose amount one of the LISTENING filters takes: each should have started exactly one run. */
const matchingEvents = async (ctx: DispatchContext, operatorId: string) =>
  Number(
    (
      await ctx.db.raw<{ rows: Array<{ n: string }> }>(`SELECT count(*) AS n FROM entity_events WHERE operator_id = ? AND (data ->> 'amount')::numeric <= ?`, [
        operatorId,
        LISTENING,
      ])
    ).rows[0]?.n ?? 0,
  );

/**
 * The backlog is growing when the median of the window's second half of samples is above the first half's by more
 * than half a second of the offered events: a dispatcher that keeps up holds it flat, whatever its level.
 */
const growing = (samples: number[], rate: number) => {
  const half = Math.floor(samples.length / 2);
  return median(samples.slice(half)) > median(samples.slice(0, half)) + Math.max(20, rate / 2);
};

async function sampleBacklog(ctx: DispatchContext, operatorId: string, untilDone: Promise<unknown>, seconds: number): Promise<number[]> {
  const samples: number[] = [];
  let done = false;
  void untilDone.finally(() => (done = true));
  for (let s = 0; !done && s < seconds + 10; s += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (!done) samples.push(await backlogOf(ctx.db, operatorId));
  }
  return samples;
}

async function rung(ctx: DispatchContext, tenant: DispatchTenant, rate: number, options: FilteringOptions): Promise<Rung> {
  const { windowS } = options;
  // The event loop of this process, which on the dev topology holds the API and the dispatcher together.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const loading = profiled(`filtering-${rate}`, options, () => load(ctx, tenant, windowS, rate, options.matching));
  const backlog = await sampleBacklog(ctx, tenant.operatorId, loading, windowS);
  const result = await loading;
  loop.disable();
  const expected = await matchingEvents(ctx, tenant.operatorId);
  const settled = await settledRuns(ctx.db, tenant.operatorId, expected, Math.max(SETTLE_MS, 2000 * windowS));
  const drained =
    settled.backlog === 0 ||
    (await until('', async () => ((await backlogOf(ctx.db, tenant.operatorId)) === 0 ? true : undefined), SETTLE_MS, 500).catch(() => false));
  return {
    rate,
    load: result,
    backlog,
    expected,
    started: settled.runs,
    growing: growing(backlog, rate),
    drainedS: drained ? settled.seconds : undefined,
    loopMs: { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6 },
  };
}

const keptUp = (r: Rung) => !r.growing && r.started >= r.expected && r.load.rps >= 0.95 * r.rate;

function describe(r: Rung): string {
  const samples = r.backlog;
  const mid = samples[Math.floor(samples.length / 2)] ?? NaN;
  return (
    `${String(r.rate).padStart(5)}/s offered: ${fmt(r.load.rps, 0)}/s accepted (${r.load.non2xx} non-2xx, ${r.load.errors} errors; ` +
    `answered p50 ${fmt(r.load.p50, 0)} / p99 ${fmt(r.load.p99, 0)} ms; event loop delay p50 ${fmt(r.loopMs.p50, 0)} / p99 ${fmt(r.loopMs.p99, 0)} ms), ` +
    `backlog ${samples[0] ?? NaN} → ${mid} → ${samples.at(-1) ?? NaN} (${r.growing ? 'growing' : 'flat'}), ` +
    `runs ${r.started} of ${r.expected} matching events so far, ${r.drainedS === undefined ? 'backlog not drained' : `settled ${fmt(r.drainedS)} s after the window`}: ${keptUp(r) ? 'kept up' : 'fell behind'}`
  );
}

/**
 * Filtering: the offered rate climbs the ladder, each rung held for the window, while LISTENING automations listen in
 * `listening` and 1 % of the events match one of them; the highest rung it keeps up with (backlog flat, every matching
 * event's run started, the rate accepted) beside the single-event ingest rate of `quiet`, which no automation listens
 * to, through the same endpoint and connections, before and after the ladder. The ladder stops at the first miss.
 */
export async function filteringSection(ctx: DispatchContext, listening: DispatchTenant, quiet: DispatchTenant, options: FilteringOptions): Promise<GoalRow[]> {
  await load(ctx, quiet, 2);
  const floors = [await profiled('filtering-floor', options, () => load(ctx, quiet, FLOOR_SECONDS))];
  let best = 0;
  for (const rate of options.rates) {
    const result = await rung(ctx, listening, rate, options);
    detail(describe(result));
    if (!keptUp(result)) break;
    best = rate;
  }
  floors.push(await profiled('filtering-floor-after', { ...options, profile: false }, () => load(ctx, quiet, FLOOR_SECONDS)));
  const floor = (floors[0]!.rps + floors[1]!.rps) / 2;
  detail(
    `ingest floor (no automation listening, ${CONNECTIONS} connections, ${FLOOR_SECONDS} s before and after the ladder): ${floors.map((f) => fmt(f.rps, 0)).join(' and ')} events/s`,
  );
  return [
    { name: 'highest rate kept up, 1 % matching / ingest floor', figure: best, floor, unit: '/s', goal: { atLeast: 0.5 } },
    { name: 'highest rate kept up / 1,000 events/s', figure: best, floor: 1000, unit: '/s', goal: { atLeast: 1 } },
  ];
}
