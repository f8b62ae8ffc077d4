/**
 * `npm run bench:bytes`: another organisation's GET p99 beside a byte flood (issue 41 item 3), against its p99 alone
 * in the same run. One API process on the shipped body byte budget (no worker: the flood's cost to the API is what is
 * measured), embedded PostgreSQL and Temporal; the flood (tools/chaos/byteFlood.ts: four loops of ~10 MB event POSTs) in a
 * process of its own at the lowest priority, held and let go in alternate rounds so shared load on the machine falls
 * on both sides alike. Prints the rounds, the p50/p95/p99 of each side, the ratio, the flood's answers and the API's
 * CPU per second on each side. BENCH_BYTES_ROUNDS (default 10) rounds of BENCH_BYTES_ROUND_MS (default 4,000);
 * PROCESS_PROFILE_DIR=dir writes the API's V8 CPU profile there at exit.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseConfig } from '../../core/config';
import { IGAMING_TEMPLATE_ID } from '../../core/templates';
import { startProcessStack } from '../stack/processStack';
import { post, signUpOperator } from '../stack/stackClient';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { ownCpuMs, treeCpuMs } from './lib/cpu';
import { percentile } from './lib/stats';

const ROUNDS = Number(process.env.BENCH_BYTES_ROUNDS ?? 10);
const ROUND_MS = Number(process.env.BENCH_BYTES_ROUND_MS ?? 4_000);
/** Requests in flight when the flood is let go or held belong to neither side. */
const SETTLE_MS = 300;
const ROOT = path.resolve(__dirname, '../..');

interface FloodReport {
  elapsedMs: number;
  bodyBytes: number;
  byStatus: Record<string, number>;
  retryAfter: string[];
  other: unknown[];
}

function startFlood(url: string, key: string, seconds: number) {
  const child = spawn('nice', ['-n', '19', process.execPath, '--import', 'tsx', 'tools/chaos/byteFlood.ts', url, key, String(seconds), '4'], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const report = new Promise<FloodReport>((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(output) as FloodReport) : reject(new Error(`flood exited ${code}`)))),
  );
  return {
    pid: child.pid!,
    report,
    set: (on: boolean) => void child.stdin.write(on ? 'on\n' : 'off\n'),
    stop: () => void child.stdin.write('stop\n'),
  };
}

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
};
const ms = (value: number) => value.toFixed(1);

/** The whole machine's busy and softirq CPU ms (all cores) from /proc/stat: loopback traffic is mostly softirq. */
function machineCpuMs(): { busy: number; softirq: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  return { busy: (user + nice + system + irq + softirq + steal) * 10, softirq: softirq * 10 };
}

/** CPU ms so far of each process the bench watches, and of the machine. */
function cpuNow(pids: { api: number; flood: number; postgres: number | undefined }): Record<string, number> {
  const machine = machineCpuMs();
  return {
    api: ownCpuMs(pids.api),
    flood: treeCpuMs(pids.flood),
    postgres: pids.postgres === undefined ? NaN : treeCpuMs(pids.postgres),
    bench: ownCpuMs(process.pid),
    machine: machine.busy,
    softirq: machine.softirq,
  };
}

async function main(): Promise<void> {
  const say = (line: string) => process.stdout.write(`${line}\n`);
  // BODY_BYTES_PER_SECOND / BODY_BYTES_BURST in the environment replace the shipped budget (to tell its parts apart).
  const shipped = parseConfig({ BODY_BYTES_PER_SECOND: process.env.BODY_BYTES_PER_SECOND, BODY_BYTES_BURST: process.env.BODY_BYTES_BURST });
  say(`bench:bytes: starting PostgreSQL, Temporal and one API process (body budget ${shipped.BODY_BYTES_PER_SECOND} B/s, burst ${shipped.BODY_BYTES_BURST})…`);
  const stack = await startProcessStack(
    { LOG_LEVEL: 'error', BODY_BYTES_PER_SECOND: String(shipped.BODY_BYTES_PER_SECOND), BODY_BYTES_BURST: String(shipped.BODY_BYTES_BURST) },
    () => undefined,
    { temporalFile: false },
  );
  try {
    const api = await stack.spawnApi();
    const [alice, bob] = await Promise.all([signUpOperator(api.url), signUpOperator(api.url)]);
    for (const { apiKey } of [alice, bob]) {
      await post(api.url, '/operator-data-api/settings', { templateId: IGAMING_TEMPLATE_ID }, apiKey, 'PUT');
      await post(api.url, '/operator-data-api/entities', { entityType: 'player', externalId: 'p-1', data: {} }, apiKey);
      await post(api.url, '/operator-data-api/entities/p-1/events', { eventType: 'game_activity', data: { game_id: 'g-1', bet_amount: 1 } }, apiKey);
    }
    const get = async () => {
      const response = await fetch(`${api.url}/operator-data-api/entities/p-1/events?limit=10`, { headers: { authorization: `Bearer ${bob.apiKey}` } });
      await response.arrayBuffer();
      return response.status;
    };
    for (let warm = 0; warm < 200; warm += 1) await get();

    const flood = startFlood(api.url, alice.apiKey, (ROUNDS * ROUND_MS) / 1000 + 30);
    flood.set(false);
    const sides = { alone: [] as number[], flood: [] as number[] };
    const cpu = { alone: {} as Record<string, number>, flood: {} as Record<string, number> };
    const pids = { api: api.pid, flood: flood.pid, postgres: stack.pids().postgres };
    let errors = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const side = round % 2 === 0 ? 'alone' : 'flood';
      flood.set(side === 'flood');
      const started = Date.now();
      const latencies: number[] = [];
      let cpuAtSettle: Record<string, number> | undefined;
      while (Date.now() - started < ROUND_MS) {
        const settling = Date.now() - started < SETTLE_MS;
        if (!settling && !cpuAtSettle) cpuAtSettle = cpuNow(pids);
        const begin = performance.now();
        const status = await get();
        if (status !== 200) errors += 1;
        if (!settling) latencies.push(performance.now() - begin);
      }
      const cpuAtEnd = cpuNow(pids);
      for (const [name, value] of Object.entries(cpuAtEnd)) cpu[side][name] = (cpu[side][name] ?? 0) + value - (cpuAtSettle?.[name] ?? value);
      sides[side].push(...latencies);
      const round99 = summary(latencies);
      say(`round ${round + 1} ${side.padEnd(5)}: ${round99.n} GETs, p50 ${ms(round99.p50)} ms, p99 ${ms(round99.p99)} ms`);
    }
    flood.set(false);
    flood.stop();
    const report = await flood.report;
    const alone = summary(sides.alone);
    const beside = summary(sides.flood);
    const measuredSeconds = ((ROUNDS / 2) * (ROUND_MS - SETTLE_MS)) / 1000;
    say(
      `flood: ${JSON.stringify(report.byStatus)} (bodies of ${report.bodyBytes} B; Retry-After ${report.retryAfter.join(',')}); other answers ${JSON.stringify(report.other)}`,
    );
    say(`bystander GET alone : n ${alone.n}, p50 ${ms(alone.p50)} ms, p95 ${ms(alone.p95)} ms, p99 ${ms(alone.p99)} ms`);
    say(`bystander GET flood : n ${beside.n}, p50 ${ms(beside.p50)} ms, p95 ${ms(beside.p95)} ms, p99 ${ms(beside.p99)} ms`);
    say(`p99 ratio ${(beside.p99 / alone.p99).toFixed(2)}× (goal ≤ 1.5×), p50 ratio ${(beside.p50 / alone.p50).toFixed(2)}×; non-200 GETs ${errors}`);
    for (const side of ['alone', 'flood'] as const) {
      say(
        `CPU ms per second, ${side.padEnd(5)}: ${Object.entries(cpu[side])
          .map(([name, value]) => `${name} ${(value / measuredSeconds).toFixed(0)}`)
          .join(', ')}`,
      );
    }
    say(
      `load average ${loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')} (a shared two-core machine: other engineers' tests run beside this)`,
    );
    await api.kill('SIGTERM');
  } finally {
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
