/**
 * `npm run bench:backtest`: 100,000 stored transaction events backtested through a draft (a lowered threshold) and
 * the current version of an event-triggered automation — events replayed per second, both definitions, from the
 * POST to the completed result — beside the same events ingested live through the data API's batch endpoint (20
 * jobs of 5,000, until their jobs complete) in the same run. The target: 100,000 events backtested in at most 60 s on
 * the 2-core machine. Starts its own embedded PostgreSQL, Temporal dev server, worker and API; loopback only; stops
 * everything.
 */
import { IGAMING_TEMPLATE_ID } from '../../core/templates';
import { runBench } from './lib/baseline';
import { benchOperator, post, startBenchStack } from './lib/stack';
import { fmt, say } from './lib/stats';

const EVENTS = 100_000;
const BATCH = 5_000;
const PLAYERS = 2_000;
const TARGET_SECONDS = 60;

const eventFor = (i: number) => ({
  externalId: `player-${i % PLAYERS}`,
  eventType: 'transaction',
  data: { type: i % 4 === 3 ? 'withdrawal' : 'deposit', amount: (i * 7919) % 10_007, currency: 'EUR' },
});

const bonus = (threshold: number) => ({
  nodes: [
    { id: 'deposit', type: 'trigger.event', params: { event: 'entity_event.transaction', filter: 'trigger.data.type = "deposit"' } },
    { id: 'big', type: 'condition', params: { expression: `trigger.data.amount > ${threshold}` } },
    { id: 'mail', type: 'action.send_email', params: { to: 'crm@example.test', subject: 'A bonus for {{ trigger.entity.externalId }}', text: 'Thanks' } },
  ],
  edges: [
    { from: 'deposit', to: 'big' },
    { from: 'big', to: 'mail', when: true },
  ],
});

const get = async (url: string, path: string, key: string) =>
  (await (await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } })).json()) as any;

async function until<T>(read: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function main(): Promise<void> {
  say('starting PostgreSQL, Temporal, worker and API…');
  const stack = await startBenchStack();
  try {
    const { url } = stack;
    const { apiKey } = await benchOperator(url);
    await post(url, '/operator-data-api/settings', { templateId: IGAMING_TEMPLATE_ID, reportingCurrency: 'EUR' }, apiKey, 'PUT');
    const players = Array.from({ length: PLAYERS }, (_, i) => ({ entityType: 'player', externalId: `player-${i}`, data: {} }));
    for (let i = 0; i < PLAYERS; i += 1000) {
      const job = await post(url, '/operator-data-api/batch/entities', players.slice(i, i + 1000), apiKey);
      await until(
        async () => ((await get(url, `/operator-data-api/batch/jobs/${job.data.jobId}`, apiKey)).data.status === 'completed' ? true : undefined),
        120_000,
      );
    }
    const from = new Date(Date.now() - 1000).toISOString();

    say(`ingesting ${EVENTS} events live (batch API, ${EVENTS / BATCH} jobs)…`);
    const ingestStart = performance.now();
    const jobs: string[] = [];
    for (let i = 0; i < EVENTS; i += BATCH) {
      const body = Array.from({ length: BATCH }, (_, k) => eventFor(i + k));
      jobs.push((await post(url, '/operator-data-api/batch/events', body, apiKey)).data.jobId);
    }
    for (const jobId of jobs) {
      await until(async () => {
        const job = (await get(url, `/operator-data-api/batch/jobs/${jobId}`, apiKey)).data;
        if (job.status === 'failed') throw new Error(`job ${jobId} failed`);
        return job.status === 'completed' ? true : undefined;
      }, 600_000);
    }
    const ingestSeconds = (performance.now() - ingestStart) / 1000;
    const to = new Date(Date.now() + 1000).toISOString();

    const workflow = await post(url, '/workflows-api/workflows', { name: 'Bench bonus', ...bonus(9900) }, apiKey);
    say('backtesting a draft (threshold 9500) against the current version (9900)…');
    const backtestStart = performance.now();
    const created = await post(url, `/workflows-api/workflows/${workflow.data.id}/backtests`, { from, to, definition: bonus(9500) }, apiKey);
    const done = await until(async () => {
      const backtest = (await get(url, `/workflows-api/backtests/${created.data.id}`, apiKey)).data;
      if (backtest.status === 'failed' || backtest.status === 'cancelled') throw new Error(`backtest ${backtest.status}: ${JSON.stringify(backtest.error)}`);
      return backtest.status === 'completed' ? backtest : undefined;
    }, 300_000);
    const backtestSeconds = (performance.now() - backtestStart) / 1000;

    const { result } = done;
    say('');
    say('| measure | events | seconds | events/s |');
    say('|---|---:|---:|---:|');
    say(`| ingested live (batch API, until the jobs complete) | ${EVENTS} | ${fmt(ingestSeconds)} | ${fmt(EVENTS / ingestSeconds, 0)} |`);
    say(`| backtested (two definitions, POST → result) | ${done.processed} | ${fmt(backtestSeconds)} | ${fmt(done.processed / backtestSeconds, 0)} |`);
    say('');
    say(
      `backtest/ingest: ${fmt(ingestSeconds / backtestSeconds, 2)}×; runs ${result.backtested.runs}, emails it would send ${result.backtested.consumed.actions} (current: ${result.baseline.consumed.actions}), players newly affected ${result.players.newlyAffected.total}`,
    );
    say(`100,000 events backtested in ${fmt(backtestSeconds)} s (target ≤ ${TARGET_SECONDS} s): ${backtestSeconds <= TARGET_SECONDS ? 'met' : 'NOT met'}`);
    if (done.processed !== EVENTS) throw new Error(`backtested ${done.processed} events, not ${EVENTS}`);
  } finally {
    await stack.stop();
  }
}

runBench(main);
