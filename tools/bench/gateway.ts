/**
 * `npm run bench:gateway`: latency (p50/p99) and throughput of `POST /gateway` beside, in the same run, a direct call
 * to the same loopback supplier and the bare Temporal shape the gateway is built on (an Update of a running workflow
 * whose local activity sends the same GET, tools/bench/lib/bareTemporal.ts): the latency the gateway adds, and its p50 and
 * 8-concurrent throughput against that floor (targets ≤ 1.2× and ≥ 0.8×). The machine's speed drifts by up to 2× over
 * tens of seconds, so the two take turns closely: sequential calls one by one (A B B A…, `interleaved`), concurrent
 * calls in short phases (`alternatingPhases`), each figure from the turns pooled. Starts its own embedded PostgreSQL,
 * Temporal server (PLATFORM_TOPOLOGY=cluster: the PostgreSQL-backed one), worker and API — in this process, or with
 * BENCH_PROCESSES=separate as processes of their own, the bare shape's worker too (tools/bench/lib/stack.ts); loopback
 * only; bounded in request count and time; stops everything by itself.
 */
import { bareHopWhereTheApiIs } from './lib/bareHop';
import { describeHop, measureHop } from './lib/hopPasses';
import { startBareTemporal } from './lib/bareTemporal';
import { runBench } from './lib/baseline';
import { cpuMeter, formatCpu } from './lib/cpu';
import { leanClient } from './lib/httpClient';
import { startProfile } from './lib/profile';
import { supplierConnection, benchOperator, startHotPathStack } from './lib/stack';
import { alternatingPhases, interleaved, measure as measureWithin, p50Ratio, percentile, pooled, say, throughput, type Measured } from './lib/stats';
import { startSupplier, SUPPLIER_KEY } from '../stack/loopbackSupplier';

const SEQUENTIAL_REQUESTS = 400;
const SEQUENTIAL_SLOW_PATH_REQUESTS = 100;
const CONCURRENT_REQUESTS = 800;
const CONCURRENCY = 8;
/** Concurrent phases of bare and gateway taken in turns (A B B A…): this many pairs of this many requests each. */
const PAIRS = 16;
const PHASE_REQUESTS = 48;
/** The phase of each whose CPU is read, after the measured ones. */
const METERED_REQUESTS = 200;
const PHASE_TIME_LIMIT_MS = 45_000;

type Phase = Measured;

const measure = (request: () => Promise<void>, count: number, concurrency: number) =>
  measureWithin(request, { count, concurrency, timeLimitMs: PHASE_TIME_LIMIT_MS });

async function expectOk(response: Promise<{ status: number; body: string }>, what: string): Promise<any> {
  const { status, body } = await response;
  if (status < 200 || status > 299) throw new Error(`${what}: HTTP ${status} ${body.slice(0, 200)}`);
  return body ? JSON.parse(body) : undefined;
}

function report(name: string, phase: Phase) {
  const { latencies, seconds } = phase;
  return { name, count: latencies.length, p50: percentile(latencies, 50), p99: percentile(latencies, 99), rps: latencies.length / seconds };
}

async function main(): Promise<void> {
  say('starting PostgreSQL, Temporal, worker and API…');
  const stack = await startHotPathStack({ GATEWAY_ALLOW_PRIVATE_NETWORKS: 'true' }, (line) => process.stderr.write(`${line}\n`));
  const supplier = await startSupplier();
  const stops: Array<() => Promise<void>> = [];
  try {
    const { apiKey: key } = await benchOperator(stack.url);
    const connectionId = await supplierConnection(stack.url, key, supplier.url, 'bench');
    const client = leanClient();
    stops.push(async () => client.close());
    const direct = () =>
      expectOk(client.send('GET', `${supplier.url}/players/p-1/kyc`, { 'x-api-key': SUPPLIER_KEY, accept: 'application/json' }), 'direct').then(
        () => undefined,
      );
    const gatewayCall = (operation: string) => {
      const body = JSON.stringify({ connectionId, operation, params: { playerId: 'p-1' } });
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
      return () =>
        expectOk(client.send('POST', `${stack.url}/gateway`, headers, body), 'gateway').then((answer) => {
          if (answer.data.status !== 'approved') throw new Error('gateway answered without translation');
        });
    };
    const bareTemporal = await startBareTemporal({
      address: stack.temporalAddress,
      namespace: stack.namespace,
      keyring: stack.keyring,
      lanes: CONCURRENCY,
      ...(stack.workerProcess ? { workerProcess: stack.workerProcess } : {}),
    });
    stops.push(() => bareTemporal.close());
    const target = { url: `${supplier.url}/players/p-1/kyc`, headers: { 'x-api-key': SUPPLIER_KEY, accept: 'application/json' } };
    const bareAnswer = () => bareTemporal.update(target.url, target.headers);
    const bareUpdate = () => bareAnswer().then(() => undefined);
    // The hop runs where the API runs: in this process, or apart from it with a client and lanes of its own.
    const hop = await bareHopWhereTheApiIs(stack, bareTemporal, { shape: 'update', lanes: CONCURRENCY, target }, bareAnswer);
    stops.push(hop.close);
    const hopBody = JSON.stringify({ connectionId, operation: 'kyc.status', params: { playerId: 'p-1' } });
    const bareBehindHop = () => expectOk(client.send('POST', hop.url, { 'content-type': 'application/json' }, hopBody), 'bare hop').then(() => undefined);

    say('warming up…');
    await measure(direct, 50, 4);
    await measure(gatewayCall('kyc.status'), 50, 4);
    await measure(gatewayCall('verification.start'), 20, 2);
    await measure(bareUpdate, 50, 4);
    say('measuring…');
    const directSeq = report('direct GET', await measure(direct, SEQUENTIAL_REQUESTS, 1));
    const gatewayGet = gatewayCall('kyc.status');
    // Two halves, each interleaved call by call: the ratio of each half shows how far one run's figure moves.
    const halves: Array<[Phase, Phase]> = [];
    for (let index = 0; index < 2; index += 1) {
      halves.push(await interleaved(bareUpdate, gatewayGet, { count: SEQUENTIAL_REQUESTS / 2, timeLimitMs: PHASE_TIME_LIMIT_MS }));
    }
    const bareSeqPhase = pooled(halves.map(([bare]) => bare));
    const gatewaySeqPhase = pooled(halves.map(([, gateway]) => gateway));
    const [bareConcPhases, gatewayConcPhases] = await alternatingPhases(bareUpdate, gatewayGet, {
      pairs: PAIRS,
      count: PHASE_REQUESTS,
      concurrency: CONCURRENCY,
      timeLimitMs: PHASE_TIME_LIMIT_MS,
    });
    // The HTTP hop alone: the bare Update behind a bare Koa handler, beside the bare Update and beside the gateway.
    const hopFigures = await measureHop(
      { floor: bareUpdate, hop: bareBehindHop, platform: gatewayGet },
      { count: SEQUENTIAL_REQUESTS / 2, pairs: PAIRS / 2, phaseCount: PHASE_REQUESTS, concurrency: CONCURRENCY, timeLimitMs: PHASE_TIME_LIMIT_MS },
    );
    const meter = () =>
      cpuMeter({
        ...stack.cpu,
        ...(bareTemporal.workerPid ? { 'bare worker': { pid: bareTemporal.workerPid, tree: false } } : {}),
        ...(hop.pid ? { hop: { pid: hop.pid, tree: false } } : {}),
      });
    const metered = async (request: () => Promise<void>) => {
      const phaseMeter = meter();
      const phase = await measure(request, METERED_REQUESTS, CONCURRENCY);
      return phaseMeter.perOperation(phase.latencies.length);
    };
    const bareCpu = await metered(bareUpdate);
    const cpu = await metered(gatewayGet);
    const hopCpu = await metered(bareBehindHop);
    const bareSeq = report('bare Update + local act.', bareSeqPhase);
    const gatewaySeq = report('gateway GET (kyc.status)', gatewaySeqPhase);
    const gatewayPost = report('gateway POST', await measure(gatewayCall('verification.start'), SEQUENTIAL_SLOW_PATH_REQUESTS, 1));
    const directConc = report(`direct GET x${CONCURRENCY}`, await measure(direct, CONCURRENT_REQUESTS, CONCURRENCY));
    const bareConc = report(`bare Update x${CONCURRENCY}`, pooled(bareConcPhases));
    const gatewayConc = report(`gateway GET x${CONCURRENCY}`, pooled(gatewayConcPhases));
    const pairRatios = gatewayConcPhases.map((phase, i) => throughput(phase) / throughput(bareConcPhases[i]!)).sort((x, y) => x - y);
    const profiling = await startProfile();
    const profiled = await measure(gatewayCall('kyc.status'), CONCURRENT_REQUESTS / 2, CONCURRENCY);
    const profile = await profiling.stop('gateway-get-x8', profiled.latencies.length);

    say('');
    say(`${'case'.padEnd(26)} ${'requests'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'req/s'.padStart(8)}`);
    for (const row of [directSeq, bareSeq, gatewaySeq, gatewayPost, directConc, bareConc, gatewayConc]) {
      say(
        `${row.name.padEnd(26)} ${String(row.count).padStart(8)} ${row.p50.toFixed(2).padStart(8)} ${row.p99.toFixed(2).padStart(8)} ${row.rps.toFixed(0).padStart(8)}`,
      );
    }
    const added = (gateway: typeof directSeq, baseline: typeof directSeq) =>
      `p50 +${(gateway.p50 - baseline.p50).toFixed(2)} ms, p99 +${(gateway.p99 - baseline.p99).toFixed(2)} ms`;
    say('');
    say(`added latency, sequential GET:   ${added(gatewaySeq, directSeq)}`);
    say(`added latency, sequential POST:  ${added(gatewayPost, directSeq)}`);
    say(`added latency, ${CONCURRENCY} concurrent GET: ${added(gatewayConc, directConc)}`);
    say(
      `throughput, ${CONCURRENCY} concurrent: gateway ${gatewayConc.rps.toFixed(0)} req/s = ${((gatewayConc.rps / directConc.rps) * 100).toFixed(1)}% of direct`,
    );
    say(
      `against the bare shape: GET p50 ${p50Ratio(gatewaySeqPhase, bareSeqPhase).toFixed(2)}× ` +
        `(calls in turns, A B B A…; halves ${halves.map(([bare, gateway]) => p50Ratio(gateway, bare).toFixed(2)).join(', ')}; target ≤ 1.2×), ` +
        `${CONCURRENCY}-concurrent throughput ${(gatewayConc.rps / bareConc.rps).toFixed(2)}× ` +
        `(${PAIRS} pairs of ${PHASE_REQUESTS}-request phases in turns, pooled; pairs' quartiles ${percentile(pairRatios, 25).toFixed(2)}–${percentile(pairRatios, 75).toFixed(2)}; target ≥ 0.8×)`,
    );
    say(
      describeHop(hopFigures, { apart: hop.pid !== undefined, pairs: PAIRS / 2, concurrency: CONCURRENCY, platform: 'the gateway', concurrent: 'throughput' }),
    );
    say(
      `CPU per call at ${CONCURRENCY} concurrent (a phase of ${METERED_REQUESTS} each, after the measured ones): gateway ${formatCpu(cpu)}; bare Update ${formatCpu(bareCpu)}; bare Update behind the hop ${formatCpu(hopCpu)}`,
    );
    say(`profiled round: ${profile}`);
    say(`(bare Update: an Update of one of ${CONCURRENCY} running workflows whose local activity sends the same GET, on the same server,`);
    say(" with the platform's payload codec and nothing else of the platform — the floor of the gateway's shape;");
    say(
      stack.processes === 'one'
        ? ' node: this process — load, API, worker, bare worker and supplier; postgres: the server and its backends; temporal: its server;'
        : " load: this process — load and supplier; api, worker: the platform's processes; bare worker: the bare shapes' own; postgres: the server and its backends; temporal: its server;",
    );
    say(' requests go out through node:http on a keep-alive agent, tools/bench/lib/httpClient.ts)');
  } finally {
    for (const stop of stops) await stop();
    await supplier.close();
    await stack.stop();
  }
}

runBench(main);
