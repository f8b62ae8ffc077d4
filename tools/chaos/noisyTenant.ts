import { percentile } from '../bench/lib/stats';
import { startHostile } from './hostileTenant';
import { request, result, sleep, waitUntil, type Answer, type ChaosContext, type Scenario } from './lib';
import { noisyAutomations, PLAIN_REGEX, quietAutomations, startNoisySupplier, tenant, type Tenant } from './noisyFixtures';

interface Kind {
  name: string;
  perSecond: number;
  fire(n: number): Promise<Answer>;
  /** Whether the answer is the success this kind expects. */
  ok(answer: Answer): boolean;
}

interface Measured {
  latencies: Record<string, number[]>;
  errors: string[];
  /** Each request's start (ms into the phase), kind and latency: where in the phase the slow ones fell. */
  timeline: Array<[number, string, number]>;
}

/**
 * The quiet operator's traffic, the soak's everyday mix (tools/bench/soak): single events nothing listens to, deposits that
 * each fire a run, gateway GETs and MCP `tools/call`, paced.
 */
function quietKinds(url: string, quiet: Tenant, toolName: string): Kind[] {
  return [
    {
      name: 'ingest',
      perSecond: 20,
      fire: (n) =>
        request(url, '/operator-data-api/entities/p-1/events', {
          key: quiet.key,
          body: { eventType: 'game_activity', data: { game_id: `game-${n % 20}`, bet_amount: 1 + (n % 50), currency: 'EUR' } },
        }),
      ok: (answer) => answer.status === 201,
    },
    {
      name: 'event→run',
      perSecond: 2,
      fire: (n) =>
        request(url, '/operator-data-api/entities/p-1/events', {
          key: quiet.key,
          body: { eventType: 'transaction', data: { type: 'deposit', amount: 10 + (n % 90), currency: 'EUR' } },
        }),
      ok: (answer) => answer.status === 201,
    },
    {
      name: 'gateway',
      perSecond: 5,
      fire: () =>
        request(url, '/gateway', { key: quiet.key, body: { connectionId: quiet.connectionId, operation: 'kyc.status', params: { playerId: 'p-1' } } }),
      ok: (answer) => answer.status === 200 && answer.body?.data?.status === 'approved',
    },
    {
      name: 'mcp',
      perSecond: 1,
      fire: (n) =>
        request(url, '/mcp-server', { key: quiet.key, body: { jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: toolName, arguments: {} } } }),
      ok: (answer) => answer.status === 200 && answer.body?.result?.isError === false,
    },
  ];
}

/** Runs every kind at its pace for `seconds`, measuring each request. */
async function drive(kinds: Kind[], seconds: number): Promise<Measured> {
  const measured: Measured = { latencies: Object.fromEntries(kinds.map((kind) => [kind.name, []])), errors: [], timeline: [] };
  const started = Date.now();
  const until = started + seconds * 1000;
  await Promise.all(
    kinds.map(async (kind) => {
      const inFlight: Array<Promise<void>> = [];
      for (let n = 0; Date.now() < until; n += 1) {
        const at = Date.now() - started;
        inFlight.push(
          kind.fire(n).then(
            (answer) => {
              measured.latencies[kind.name]!.push(answer.ms);
              measured.timeline.push([at, kind.name, answer.ms]);
              if (!kind.ok(answer)) measured.errors.push(`${kind.name}: HTTP ${answer.status} ${answer.text.slice(0, 160)}`);
            },
            (error: Error) => void measured.errors.push(`${kind.name}: ${error.message}`),
          ),
        );
        await sleep(1000 / kind.perSecond);
      }
      await Promise.all(inFlight);
    }),
  );
  return measured;
}

/** A round of the noisy loop starts at most this often per client: abuse at the pace of a busy integration, not a flood (rate limits bound those). */
const ROUND_MS = 1_000;

/** The noisy operator, from `clients` loops until `stop`: everything issue 21 found could stop the platform. */
function startNoise(url: string, noisy: Tenant, automations: { backtracking: string; large: string }, clients: number) {
  let stopping = false;
  const counts = { requests: 0, fiveXx: 0, refusedDefinitions: 0 };
  const loop = async (client: number) => {
    for (let n = 0; !stopping; n += 1) {
      const pace = sleep(ROUND_MS);
      const answers = await Promise.all([
        request(url, '/operator-data-api/entities/p-1/events', {
          key: noisy.key,
          body: { eventType: 'transaction', data: { type: 'deposit', amount: 5, currency: 'EUR' } },
        }),
        request(url, `/workflows-api/workflows/${automations.backtracking}/test`, { key: noisy.key, body: {} }),
        request(url, '/gateway', {
          key: noisy.key,
          body: { connectionId: noisy.connectionId, operation: 'kyc.status', params: { playerId: `big-${client}-${n}` } },
        }),
        request(url, `/workflows-api/workflows/${automations.large}/test`, { key: noisy.key, body: {} }),
        request(url, '/workflows-api/workflows', {
          key: noisy.key,
          body: {
            name: `Refused ${client}-${n}`,
            nodes: [
              { id: 'start', type: 'trigger.manual', params: {} },
              { id: 'c', type: 'condition', params: { expression: PLAIN_REGEX } },
            ],
            edges: [],
          },
        }),
      ]).catch(() => []);
      counts.requests += answers.length;
      counts.fiveXx += answers.filter((answer) => answer.status >= 500).length;
      counts.refusedDefinitions += answers.filter((answer) => answer.status === 400 && answer.body?.error?.code === 'VALIDATION_FAILED').length;
      await pace;
    }
  };
  const running = Promise.all(Array.from({ length: clients }, (_, client) => loop(client)));
  return {
    counts,
    stop: async () => {
      stopping = true;
      await running;
    },
  };
}

/** Each kind's p50, p90, p99 and max, for the log. */
const spread = (measured: Measured) =>
  JSON.stringify(
    Object.fromEntries(
      Object.entries(measured.latencies).map(([name, values]) => {
        const sorted = [...values].sort((a, b) => a - b);
        return [name, [50, 90, 99, 100].map((p) => Math.round(percentile(sorted, p)))];
      }),
    ),
  );

/** The quiet requests that took longest (a few more than the p99 is set by), in the order they were sent. */
function slowest(measured: Measured): string {
  const top = [...measured.timeline].sort((a, b) => b[2] - a[2]).slice(0, 12);
  return top
    .sort((a, b) => a[0] - b[0])
    .map(([at, kind, ms]) => `${(at / 1000).toFixed(1)} s ${kind} ${Math.round(ms)} ms`)
    .join(', ');
}

const p99 = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    99,
  );

/**
 * 6. Noisy tenant: the quiet operator's mixed traffic (events that start runs, gateway GETs, MCP `tools/call`) runs
 * alone, then again while a noisy operator — signed up like anyone — loops over backtracking conditions and filters
 * (hidden from the definition check by `$eval`), definitions with catastrophic regexes, 3 MB gateway answers and runs
 * with megabytes of node outputs — and, hostile (hostileTenant.ts), floods ~10 MB event bodies, sends 100,000-deep JSON,
 * previews a 16 MB template and backtests a condition past its CPU budget. Passes when the hostile requests meet their
 * bounds (429 with Retry-After, 400, EXPRESSION_OUTPUT_TOO_LARGE, the backtest ended BACKTEST_CONDITION_TIMEOUT),
 * the quiet operator meets no error, its p99 beside the noise stays within 2× of its p99 alone (beside the hostile
 * noise, in a phase of its own, the ratio is reported), neither process restarted, and every noisy run ends
 * `completed` or `failed` with a reason — none left running.
 */
export const noisyTenant: Scenario = async (context: ChaosContext) => {
  const seconds = context.short ? 15 : 30;
  const url = context.api.url;
  const supplier = await startNoisySupplier();
  try {
    const quiet = await tenant(url, supplier.url, 'quiet');
    const noisy = await tenant(url, supplier.url, 'noisy');
    const { toolName } = await quietAutomations(url, quiet);
    const automations = await noisyAutomations(url, noisy, supplier.url);
    const kinds = quietKinds(url, quiet, toolName);
    const pids = { api: context.api.pid, worker: context.worker.pid };

    await drive(kinds, 3);
    const alone = await drive(kinds, seconds);
    context.log(`noisy tenant: quiet alone p50/p90/p99/max ${spread(alone)}`);
    const noise = startNoise(url, noisy, automations, 2);
    const together = await drive(kinds, seconds);
    context.log(`noisy tenant: quiet beside the noise p50/p90/p99/max ${spread(together)}`);
    for (const [phase, measured] of [
      ['alone', alone],
      ['beside the noise', together],
    ] as const)
      context.log(`noisy tenant: quiet ${phase}, its slowest: ${slowest(measured)}`);
    // Then the same noise turned hostile: its bounds are checked, and the quiet operator's latency beside it reported.
    const hostile = await startHostile(url, noisy);
    const besideHostile = await drive(kinds, seconds);
    await noise.stop();
    await hostile.stop();
    context.log(`noisy tenant: quiet beside the hostile noise p50/p90/p99/max ${spread(besideHostile)}`);

    const failures = [...alone.errors.slice(0, 5), ...together.errors.slice(0, 5), ...besideHostile.errors.slice(0, 5)];
    if (together.errors.length > 0) failures.unshift(`the quiet operator met ${together.errors.length} errors beside the noisy one`);
    if (besideHostile.errors.length > 0) failures.unshift(`the quiet operator met ${besideHostile.errors.length} errors beside the hostile one`);
    const all = (measured: Measured) => Object.values(measured.latencies).flat();
    const ratio = p99(all(together)) / p99(all(alone));
    if (!(ratio <= 2))
      failures.push(`quiet p99 ${Math.round(p99(all(together)))} ms beside the noise, ${ratio.toFixed(2)}× its ${Math.round(p99(all(alone)))} ms alone`);
    // Reported, not failed: the goal (1.5–2×) is not met yet beside ~10 MB bodies on two cores (docs/chaos.md).
    const hostileRatio = p99(all(besideHostile)) / p99(all(alone));
    for (const [name, process] of [
      ['API', context.api],
      ['worker', context.worker],
    ] as const) {
      const alive = await Promise.race([process.exited.then(() => false), sleep(10).then(() => true)]);
      if (!alive || process.pid !== pids[name === 'API' ? 'api' : 'worker']) failures.push(`the ${name} process restarted`);
    }
    if (noise.counts.refusedDefinitions === 0) failures.push('no catastrophic definition was refused');
    failures.push(...hostile.problems.slice(0, 5));
    const stuck = await waitUntil(
      async () => {
        const rows = await context.db('automation_runs').where({ operator_id: noisy.operatorId }).select('status', 'error');
        return rows.some((row) => row.status === 'running') ? undefined : rows;
      },
      90_000,
      'every noisy run ended',
      1_000,
    ).catch((error: Error) => {
      failures.push(error.message);
      return [] as Array<{ status: string; error: { code?: string } | null }>;
    });
    const unexplained = stuck.filter((row) => row.status === 'failed' && !row.error?.code).length;
    if (unexplained > 0) failures.push(`${unexplained} noisy runs failed without a reason`);
    const byStatus = stuck.reduce<Record<string, number>>((tally, row) => ({ ...tally, [row.status]: (tally[row.status] ?? 0) + 1 }), {});
    const perKind = kinds
      .map((kind) => `${kind.name} ${Math.round(p99(alone.latencies[kind.name]!))}→${Math.round(p99(together.latencies[kind.name]!))}`)
      .join(', ');
    const outcome = result(
      'noisy tenant beside a quiet one',
      { sent: all(together).length, stored: all(together).length - together.errors.length, lost: 0, duplicated: 0, fiveXx: 0, recoveryMs: null },
      failures,
    );
    outcome.extra = `p99 ms ${Math.round(p99(all(alone)))}→${Math.round(p99(all(together)))} (${ratio.toFixed(2)}×; ${perKind}), beside the hostile noise ${Math.round(p99(all(besideHostile)))} (${hostileRatio.toFixed(2)}×, reported) noisy: ${noise.counts.requests} requests, runs ${JSON.stringify(byStatus)}; hostile: ${JSON.stringify(hostile.counts)}`;
    return outcome;
  } finally {
    await supplier.close();
  }
};
