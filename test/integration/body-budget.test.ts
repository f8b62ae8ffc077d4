import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { percentile } from '../../tools/bench/lib/stats';
import type { TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';

/** The defaults: 2 MiB/s with a burst of 20 MiB per organisation and API instance. */
const RATE = 2 * 1024 * 1024;
const BURST = 20 * 1024 * 1024;
/** The flood runs in windows of WINDOW_MS, on and off in turn, so both sides are measured over the same stretch of a shared machine. */
const WINDOWS = 10;
const WINDOW_MS = 3_000;
/** The start of each window is left out: requests in flight when the flood starts or stops. */
const SETTLE_MS = 300;
const ROOT = path.resolve(__dirname, '../..');

interface FloodReport {
  elapsedMs: number;
  bodyBytes: number;
  byStatus: Record<string, number>;
  retryAfter: string[];
  refusal: string | null;
  /** Resets heard after the server's linger: the flood, at a low priority, not reading its answer in time. */
  lateResets: number;
  other: unknown[];
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The API (`processes/api.ts`) in its own process, so the flood, the API and the measuring client each have their own event loop. */
async function spawnApi(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'processes/api.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`API exited with ${child.exitCode}`);
    const up = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { url, child };
    if (Date.now() > deadline) throw new Error('API did not start');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** tools/chaos/byteFlood.ts in a process of its own for `seconds`, held while `off` is written to it. */
function flood(url: string, key: string, seconds: number): { report: Promise<FloodReport>; set(on: boolean): void } {
  // At a low priority: on a shared two-core machine the flooding client's own CPU stands for the attacker's machine, not
  // the platform's. Not the lowest: beside three busy processes, nice 19 left it ~1 % of a core, and its start alone
  // (0.7 s of CPU) took the test past its timeout.
  const child = spawn('nice', ['-n', '10', process.execPath, '--import', 'tsx', 'tools/chaos/byteFlood.ts', url, key, String(seconds), '4'], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return {
    report: new Promise((resolve, reject) =>
      child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(output)) : reject(new Error(`flood exited ${code}`)))),
    ),
    set: (on) => void child.stdin!.write(on ? 'on\n' : 'off\n'),
  };
}

/** A chunked POST (no Content-Length) of `bytes`: its answer's status and Retry-After. */
function chunkedPost(url: string, key: string, bytes: number): Promise<{ status: number; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/operator-data-api/entities/p-1/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    req.on('response', (response) => {
      response.resume();
      response.on('end', () => {
        resolve({ status: response.statusCode!, ...(response.headers['retry-after'] ? { retryAfter: response.headers['retry-after'] } : {}) });
        req.destroy();
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify({ eventType: 'game_activity', data: { game_id: 'g-1', bet_amount: 1, game_name: 'x'.repeat(bytes) } }));
  });
}

/** Bob's GETs one after another until `until`, each kept with whether the flood was on when it was sent. */
async function timedGets(client: DataClient, until: number, phase: () => 'on' | 'off' | 'settling') {
  const latencies = { on: [] as number[], off: [] as number[] };
  let errors = 0;
  while (Date.now() < until) {
    const at = phase();
    const started = performance.now();
    const response = await client.call('/entities/p-1/events?limit=10');
    if (at !== 'settling' && phase() === at) latencies[at].push(performance.now() - started);
    if (response.status !== 200) errors += 1;
  }
  return { latencies, errors };
}

const p99 = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    99,
  );

describe('request bytes are a budget per organisation (api/middleware/bodyBudget.ts)', () => {
  let api: { url: string; child: ChildProcess };
  let alice: DataClient;
  let bob: DataClient;
  const event = (game: string) => ({ body: { eventType: 'game_activity', data: { game_id: game, bet_amount: 1 } } });

  beforeAll(async () => {
    api = await spawnApi({ TEMPORAL_TASK_QUEUE: `body-budget-${randomUUID()}`, PLATFORM_SCHEDULES: 'false' });
    const app = { url: api.url } as TestApp;
    [alice, bob] = await Promise.all([dataClient(app), dataClient(app)]);
    for (const client of [alice, bob]) {
      expect((await client.call('/entities', { body: { entityType: 'player', externalId: 'p-1', data: {} } })).status).toBeLessThan(300);
      expect((await client.call('/entities/p-1/events', event('g-1'))).status).toBe(201);
    }
  }, 120_000);
  afterAll(async () => {
    if (api && api.child.exitCode === null) {
      api.child.kill('SIGTERM');
      await new Promise((resolve) => api.child.once('exit', resolve));
    }
  }, 30_000);

  it("four concurrent ~10 MB POSTs in a loop get 429 with Retry-After, counted before parsing and held before they are answered, while another organisation's GET p99 stays near its p99 alone", async () => {
    const started = Date.now();
    const duration = WINDOWS * WINDOW_MS;
    const noise = flood(api.url, alice.key, duration / 1000 + 1);
    noise.set(false);
    // Even windows quiet, odd ones flooded; the flood starts holding and is let go at the first odd window.
    const phase = () => {
      const elapsed = Date.now() - started;
      if (elapsed % WINDOW_MS < SETTLE_MS) return 'settling' as const;
      return Math.floor(elapsed / WINDOW_MS) % 2 === 1 ? ('on' as const) : ('off' as const);
    };
    const switching = setInterval(() => noise.set(Math.floor((Date.now() - started) / WINDOW_MS) % 2 === 1), 50);
    const measured = await timedGets(bob, started + duration, phase);
    clearInterval(switching);
    noise.set(true);
    const bobPost = await bob.call('/entities/p-1/events', event('g-2'));
    // Five chunked bodies at once, each charged the largest body's worth (10 MiB) up front: the burst (20 MiB) and a
    // second's refill cover two at most, whatever the hold; charged their real 1 MiB, all five would pass.
    const chunked = await Promise.all(Array.from({ length: 5 }, () => chunkedPost(api.url, alice.key, 1024 * 1024)));
    const report = await noise.report;

    const alone = p99(measured.latencies.off);
    const beside = p99(measured.latencies.on);
    process.stdout.write(
      `body budget: flood ${JSON.stringify(report.byStatus)} in ${report.elapsedMs} ms, half of it held (Retry-After ${report.retryAfter.join(',')}), ${report.lateResets} reset after the linger; ` +
        `bob GET p99 alone ${alone.toFixed(1)} ms (${measured.latencies.off.length} requests), ` +
        `beside the flood ${beside.toFixed(1)} ms (${measured.latencies.on.length} requests): ${(beside / alone).toFixed(2)}×\n`,
    );

    expect(api.child.exitCode).toBeNull();
    const refused = report.byStatus['429'] ?? 0;
    const accepted = report.byStatus['201'] ?? 0;
    expect(refused).toBeGreaterThan(0);
    expect(report.other).toEqual([]);
    for (const value of report.retryAfter) expect(Number(value)).toBeGreaterThanOrEqual(1);
    const seconds = report.retryAfter[0];
    expect(JSON.parse(report.refusal!)).toEqual({
      success: false,
      error: { code: 'RATE_LIMITED', message: `Rate limit exceeded for request bytes; retry after ${seconds} s` },
    });
    // Never more than the burst and the refill over the flood, whatever the pace of the four clients.
    expect(accepted * report.bodyBytes).toBeLessThanOrEqual(BURST + (RATE * report.elapsedMs) / 1000);
    expect(accepted).toBeGreaterThanOrEqual(2);
    // Each refusal comes after a hold of up to 1 s, so the four loops are answered at most 4 times a second, and the
    // flood is on half the time: unheld they came back about 1,200 times in the same 30 s.
    expect(refused).toBeLessThanOrEqual((4 * duration) / 1000);
    // A chunked body takes the largest body's worth up front: leaving out Content-Length gains nothing.
    const chunkedRefused = chunked.filter((answer) => answer.status === 429 && Number(answer.retryAfter) >= 1);
    expect(chunkedRefused.length).toBeGreaterThanOrEqual(3);
    expect(bobPost.status).toBe(201);
    expect(measured.errors).toBe(0);
    // The issue's goal is 1.5×, measured by `npm run bench:bytes` (docs/security.md "Request body bytes per
    // organisation"), not here: on the shared 2-core machine other engineers' tests move a p99 more than the flood
    // does. The guard here is against losing the budget: unbudgeted, the four clients' bodies are all parsed and the
    // quiet tenant's p99 goes far past this.
    expect(beside).toBeLessThanOrEqual(4 * alone);
  }, 90_000);
});
