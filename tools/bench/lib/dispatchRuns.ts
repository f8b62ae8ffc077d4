import { startBareTemporal } from './bareTemporal';
import { detail, type GoalRow } from './dispatchReport';
import { eventRunCount } from './dispatchProbe';
import { FILTERING_PLAYERS } from './dispatchFiltering';
import { playerId, postBatches, transaction, type DispatchContext, type DispatchTenant } from './dispatchSetup';
import type { BenchStack } from './stack';
import { fmt, measure, throughput } from './stats';
import { until } from './waitForEvent';

/** The floor's workflows in flight: the connections the ingest floor and the ladder use. */
const BARE_CONCURRENCY = 32;
const TIME_LIMIT_MS = 300_000;

interface RunSpan {
  count: number;
  completed: number;
  failed: number;
  firstStart: Date;
  lastStart: Date;
  lastEnd: Date;
}

const runSpan = async (ctx: DispatchContext, operatorId: string): Promise<RunSpan> => {
  const row = await ctx
    .db('automation_runs')
    .where({ operator_id: operatorId, source: 'event' })
    .first<RunSpan>(
      ctx.db.raw('count(*)::int AS count'),
      ctx.db.raw(`count(*) FILTER (WHERE status = 'completed')::int AS completed`),
      ctx.db.raw(`count(*) FILTER (WHERE status = 'failed')::int AS failed`),
      ctx.db.raw('min(started_at) AS "firstStart"'),
      ctx.db.raw('max(started_at) AS "lastStart"'),
      ctx.db.raw('max(completed_at) AS "lastEnd"'),
    );
  return row;
};

/** The most runs of the operator running at once, sampled every 500 ms until `done` settles. */
async function peakRunning(ctx: DispatchContext, operatorId: string, done: Promise<unknown>): Promise<number> {
  let finished = false;
  void done.finally(() => (finished = true));
  let peak = 0;
  for (let n = 0; !finished && n < TIME_LIMIT_MS / 500; n += 1) {
    const running = await ctx.db('automation_runs').where({ operator_id: operatorId, status: 'running' }).count<{ n: string }[]>({ n: '*' });
    peak = Math.max(peak, Number(running[0]?.n ?? 0));
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return peak;
}

/**
 * Runs: `events` events in one batch into `every`, whose one automation (no filter, one `action.set_state`) every
 * event matches; runs started per second (first start to last start) and completed per second (first start to last
 * completion), beside the bare shape of a run — a workflow with one activity started and awaited by a client,
 * BARE_CONCURRENCY in flight, on the same Temporal server in the same run (tools/bench/lib/bareTemporal.ts).
 */
export async function runsSection(ctx: DispatchContext, stack: BenchStack, every: DispatchTenant, events: number): Promise<GoalRow[]> {
  const items = Array.from({ length: events }, (_, i) => ({ externalId: playerId(i % FILTERING_PLAYERS), ...transaction(10 + i) }));
  const before = await eventRunCount(ctx.db, every.operatorId);
  await postBatches(ctx, every.apiKey, 'events', items);
  const finished = until(
    'event runs not all finished',
    async () => {
      const span = await runSpan(ctx, every.operatorId);
      return span.completed + span.failed >= before + events ? span : undefined;
    },
    TIME_LIMIT_MS,
    250,
  ).catch(() => runSpan(ctx, every.operatorId));
  const peak = await peakRunning(ctx, every.operatorId, finished);
  const span = await finished;
  const started = span.count - before;
  const startRate = started / ((span.lastStart.getTime() - span.firstStart.getTime()) / 1000);
  const endRate = span.completed / ((span.lastEnd.getTime() - span.firstStart.getTime()) / 1000);

  const bare = await startBareTemporal({
    address: stack.temporalAddress,
    namespace: stack.deps.config.TEMPORAL_NAMESPACE,
    keyring: stack.deps.keyring,
    lanes: 1,
  });
  try {
    await measure(bare.workflowActivity, { count: 50, concurrency: BARE_CONCURRENCY, timeLimitMs: 30_000 });
    const floor = throughput(await measure(bare.workflowActivity, { count: events, concurrency: BARE_CONCURRENCY, timeLimitMs: TIME_LIMIT_MS }));
    detail(
      `${events} events in one batch: ${started} runs started, ${span.completed} completed, ${span.failed} failed; at most ${peak} running at once; ` +
        `bare: one-activity workflows at ${BARE_CONCURRENCY} in flight, ${fmt(floor, 0)}/s`,
    );
    const note = started < events ? `${events - started} events started no run within ${TIME_LIMIT_MS / 1000} s` : undefined;
    return [
      { name: 'runs started/s, every event matching / bare', figure: startRate, floor, unit: '/s', goal: { atLeast: 0.7 }, note },
      { name: 'runs completed/s / bare', figure: endRate, floor, unit: '/s', goal: { atLeast: 0.7 } },
    ];
  } finally {
    await bare.close();
  }
}
