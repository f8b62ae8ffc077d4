/**
 * `npm run soak -- --minutes N [--scale X]`: a mixed load (single and batch ingest, analytics reads, gateway calls
 * to a loopback supplier, MCP tools/call, event-triggered runs) at about half of what the benchmarks measure, held
 * for N minutes against a throw-away stack whose API and worker are separate processes. Every minute it prints
 * requests, errors, p50/p99 per kind, both processes' RSS and figures read from both `/metrics` endpoints. It fails
 * (exit 1) on any error — a refused or failed request, a failed batch job or run, a process that exited, a
 * backlog that does not drain at the end — or when either process's RSS at the end is over 10 % above its
 * minute-5 value (runs shorter than 6 minutes only report it). How to read it: docs/benchmarks.md#soak.
 */
import { runBench } from './lib/baseline';
import { startProcessStack } from '../stack/processStack';
import { fmt, say } from './lib/stats';
import { startSupplier } from '../stack/loopbackSupplier';
import { soakKinds } from './soak/kinds';
import { formatMetrics, readMetrics, rssMb, type MetricsReading } from './soak/observe';
import { emptyTally, pace, send, summary, type Tally } from './soak/pacer';
import { prepareSoak } from './soak/setup';
import { freePort } from '../../devstack/freePort';

const RSS_GROWTH_LIMIT = 0.1;
const BASELINE_MINUTE = 5;

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const merge = (into: Tally, from: Tally) => {
  into.requests += from.requests;
  into.errors += from.errors;
  into.skipped += from.skipped;
  for (const latency of from.latencies) into.latencies.push(latency);
  for (const sample of from.samples) if (into.samples.length < 5 && !into.samples.includes(sample)) into.samples.push(sample);
};
const row = (name: string, tally: Tally) => {
  const { p50, p99 } = summary(tally);
  const skipped = tally.skipped > 0 ? `  (${tally.skipped} due but not sent: in-flight cap)` : '';
  return `  ${name.padEnd(10)} ${tally.requests.toLocaleString('en-US').padStart(9)} ${String(tally.errors).padStart(6)} ${fmt(p50).padStart(8)} ${fmt(p99).padStart(8)}${skipped}`;
};

async function main(): Promise<void> {
  const minutes = Math.round(argument('minutes', 30));
  const scale = argument('scale', 1);
  say('starting PostgreSQL, Temporal, a worker process and an API process…');
  const stack = await startProcessStack(
    { GATEWAY_ALLOW_PRIVATE_NETWORKS: 'true', RATE_LIMIT_ANALYTICS_READ: '100000000', RATE_LIMIT_MCP: '100000000' },
    (line) => process.stderr.write(`${line}\n`),
  );
  const supplier = await startSupplier();
  const problems: string[] = [];
  let watching = true;
  try {
    const [apiMetricsPort, workerMetricsPort] = [await freePort(), await freePort()];
    const worker = await stack.spawnWorker({ WORKER_METRICS_PORT: String(workerMetricsPort) });
    const api = await stack.spawnApi({ METRICS_PORT: String(apiMetricsPort) });
    for (const [name, child] of [
      ['API', api],
      ['worker', worker],
    ] as const) {
      void child.exited.then((code) => watching && problems.push(`the ${name} process exited (${code ?? 'signal'})`));
    }
    const metricsUrls = [`http://127.0.0.1:${apiMetricsPort}/metrics`, `http://127.0.0.1:${workerMetricsPort}/metrics`] as const;
    const fixtures = await prepareSoak(api.url, supplier.url);
    const jobs: string[] = [];
    const kinds = soakKinds(api.url, fixtures, jobs);
    say(
      `soak: ${minutes} min, API pid ${api.pid}, worker pid ${worker.pid}; per second: ${kinds.map((kind) => `${kind.name} ${kind.perSecond * scale}`).join(', ')} (batches of 1,000 events)`,
    );
    say(`${'  kind'.padEnd(12)} ${'requests'.padStart(9)} ${'errors'.padStart(6)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}`);

    const totals = new Map(kinds.map((kind) => [kind.name, emptyTally()]));
    const pacers = kinds.map((kind) => ({ kind, pacer: pace(kind.perSecond * scale, kind.maxInFlight, kind.fire) }));
    const rss: Array<{ api: number; worker: number }> = [];
    let failedRunsSeen = 0;
    let reading: MetricsReading | undefined;
    const started = Date.now();
    const checkJobs = async () => {
      for (const jobId of jobs.splice(0)) {
        const answer = await send(`${api.url}/operator-data-api/batch/jobs/${jobId}`, { key: fixtures.key }).catch(() => ({ status: 0, body: undefined }));
        const status = answer.body?.data?.status as string | undefined;
        if (status === 'failed' || answer.status !== 200) problems.push(`batch job ${jobId}: ${status ?? `HTTP ${answer.status}`}`);
        else if (status !== 'completed') jobs.push(jobId);
      }
    };

    for (let minute = 1; minute <= minutes; minute += 1) {
      await sleep(started + minute * 60_000 - Date.now());
      const tallies = pacers.map(({ kind, pacer }) => ({ name: kind.name, tally: pacer.take() }));
      const all = emptyTally();
      for (const { name, tally } of tallies) {
        merge(all, tally);
        merge(totals.get(name)!, tally);
      }
      const now = { api: rssMb(api.pid), worker: rssMb(worker.pid) };
      rss.push(now);
      await checkJobs();
      try {
        reading = await readMetrics(...metricsUrls);
        if (reading.runsFailed > failedRunsSeen) problems.push(`${reading.runsFailed - failedRunsSeen} automation run(s) failed in minute ${minute}`);
        failedRunsSeen = reading.runsFailed;
      } catch (error) {
        problems.push(`reading /metrics failed: ${(error as Error).message}`);
      }
      const base = rss[BASELINE_MINUTE - 1];
      const growth = (value: number, from: number | undefined) =>
        from && minute > BASELINE_MINUTE ? ` (${value >= from ? '+' : ''}${fmt(((value - from) / from) * 100)} % since min ${BASELINE_MINUTE})` : '';
      say(`min ${minute}: RSS API ${fmt(now.api, 0)} MB${growth(now.api, base?.api)}, worker ${fmt(now.worker, 0)} MB${growth(now.worker, base?.worker)}`);
      say(row('all', all));
      for (const { name, tally } of tallies) say(row(name, tally));
      for (const { name, tally } of tallies) for (const sample of tally.samples) say(`  ${name} error: ${sample}`);
      if (reading) say(`  ${formatMetrics(reading)}`);
      if (all.errors > 0) problems.push(`${all.errors} request error(s) in minute ${minute}`);
    }

    say('stopping the load; waiting for batch jobs, the outbox and runs to settle…');
    const late = await Promise.all(pacers.map(async ({ kind, pacer }) => ({ name: kind.name, tally: await pacer.stop() })));
    for (const { name, tally } of late) {
      merge(totals.get(name)!, tally);
      if (tally.errors > 0) problems.push(`${tally.errors} ${name} error(s) after the last minute`);
    }
    const settleBy = Date.now() + 120_000;
    for (;;) {
      await checkJobs();
      reading = await readMetrics(...metricsUrls).catch(() => reading);
      const settled = jobs.length === 0 && reading?.outboxBacklog === 0 && reading.runsRunning === 0;
      if (settled || Date.now() > settleBy) {
        if (!settled) problems.push(`not settled 120 s after the load: ${jobs.length} batch job(s) open, ${reading ? formatMetrics(reading) : 'no metrics'}`);
        break;
      }
      await sleep(1000);
    }
    if (reading && reading.runsFailed > failedRunsSeen) problems.push(`${reading.runsFailed - failedRunsSeen} automation run(s) failed after the last minute`);

    say('');
    say(`whole run (${minutes} min):`);
    const all = emptyTally();
    for (const tally of totals.values()) merge(all, tally);
    say(row('all', all));
    for (const [name, tally] of totals) say(row(name, tally));
    if (reading) say(`  ${formatMetrics(reading)}`);
    const first = rss[0];
    const base = rss[BASELINE_MINUTE - 1];
    const last = rss.at(-1);
    if (first && last)
      say(`RSS API ${fmt(first.api, 0)} → ${fmt(last.api, 0)} MB, worker ${fmt(first.worker, 0)} → ${fmt(last.worker, 0)} MB (minute 1 → end)`);
    if (base && last && minutes > BASELINE_MINUTE) {
      for (const name of ['api', 'worker'] as const) {
        const growth = (last[name] - base[name]) / base[name];
        say(`RSS ${name} from minute ${BASELINE_MINUTE} to the end: ${growth >= 0 ? '+' : ''}${fmt(growth * 100)} % (limit +${RSS_GROWTH_LIMIT * 100} %)`);
        if (!(growth <= RSS_GROWTH_LIMIT)) problems.push(`${name} RSS grew ${fmt(growth * 100)} % after minute ${BASELINE_MINUTE}`);
      }
    } else {
      say(`(RSS growth is judged only on runs longer than ${BASELINE_MINUTE} minutes)`);
    }
  } finally {
    watching = false;
    await supplier.close();
    await stack.stop();
  }
  if (problems.length > 0) {
    say(`soak FAILED: ${problems.length} problem(s)`);
    for (const problem of problems.slice(0, 20)) say(`  - ${problem}`);
    process.exit(1);
  }
  say('soak passed: no errors, RSS within bounds');
}

runBench(main);
