/**
 * `npm run bench:mcp`: p50/p95 of MCP `tools/call` for a one-action workflow (an HTTP request to a loopback
 * server) beside its floor measured in the same run: a bare workflow + one activity sending the same GET to the same
 * server, started eagerly and awaited, on a worker and queue of the bench's own with the platform's payload codec and
 * nothing else of the platform (as the gateway's floor sends its supplier's GET). tools/call's ratio to it (target
 * ≤ 1.2) is taken with the two in close turns — sequential calls one by one (A B B A…), 4 concurrent in short phases —
 * because the machine's speed drifts by up to 2× over tens of seconds; then the floor behind a bare HTTP hop
 * (tools/bench/lib/bareHop.ts, where the API runs) beside the floor and beside tools/call. Beside them, the same
 * bare shape through the platform's worker (the diagnostics workflow, whose activity reads PostgreSQL's clock), as a
 * quiet server sees it (a pause before each call: target ≤ 1.5) and back to back, and on the bench's worker the bare
 * shape with a local activity before and after its activity — the commands of a run that records its own begin and
 * end (events, schedules, webhooks, tasks; a `tools/call`'s run is begun and ended by the API). Beside the synchronous
 * call, the same tool run as a 2025-11-25 task: the create call alone, create → `completed` polled by `tasks/get`, and
 * create → `tasks/result`; then `tasks/get` of a working task beside `ping` (the endpoint's auth, rate limit and
 * JSON-RPC, no task read), idle and while 4 clients call the tool synchronously. Starts its own embedded
 * PostgreSQL, Temporal server (PLATFORM_TOPOLOGY=cluster: the PostgreSQL-backed one), worker and API — in this process,
 * or with BENCH_PROCESSES=separate as processes of their own, the floor's worker too (tools/bench/lib/stack.ts); loopback
 * only; bounded in request count and time; stops by itself.
 */
import { startLoopbackServer, type LoopbackServer } from '../stack/loopbackServer';
import { bareWorkflowRoundTrip, runBench } from './lib/baseline';
import { bareHopWhereTheApiIs } from './lib/bareHop';
import { startBareTemporal } from './lib/bareTemporal';
import { describeHop, measureHop } from './lib/hopPasses';
import { cpuMeter, formatCpu } from './lib/cpu';
import { leanClient } from './lib/httpClient';
import { mcpCalls, POLL_MS, taskPhase, type Task, type TaskPhase } from './lib/mcpCalls';
import { startProfile } from './lib/profile';
import { benchOperator, post, startHotPathStack } from './lib/stack';
import { alternatingPhases, interleaved, measure, median, p50Ratio, percentile, pooled, say, type Measured } from './lib/stats';

const CALLS = 200;
/** Rounds in which the shapes beside the target's take turns. */
const ROUNDS = 5;
/** tools/call and its floor at 4 concurrent: this many pairs of phases of this many calls each, in turns (A B B A…). */
const PAIRS = 10;
const PHASE_CALLS = 20;
const CONCURRENT_CALLS = 200;
const CONCURRENCY = 4;
const PHASE_TIME_LIMIT_MS = 60_000;
/** The pause before each call of the quiet baseline: long enough for every poller to be waiting again. */
const QUIET_GAP_MS = 200;
/** `tasks/get` and `ping` requests each, idle and under load. */
const READS = 400;
/** How long the synchronous load runs before the reads start. */
const LOAD_SETTLE_MS = 2_000;

type Cpu = ReturnType<ReturnType<typeof cpuMeter>['perOperation']>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The workflow's HTTP target: answers every request at once, so the figures are the platform's alone. */
function startTarget(): Promise<LoopbackServer> {
  return startLoopbackServer(
    (_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    },
    { keepAliveTimeout: 30_000 },
  );
}

interface Row {
  name: string;
  count: number;
  p50: number;
  p95: number;
  /** NaN when the row has no rate of its own (the create call, timed inside a phase of whole tasks). */
  rps: number;
}

function row(name: string, phase: Measured): Row {
  const { latencies, seconds } = phase;
  return { name, count: latencies.length, p50: percentile(latencies, 50), p95: percentile(latencies, 95), rps: latencies.length / seconds };
}

const printRow = (line: Row) =>
  say(
    `${line.name.padEnd(24)} ${String(line.count).padStart(6)} ${line.p50.toFixed(2).padStart(8)} ${line.p95.toFixed(2).padStart(8)} ${(Number.isFinite(line.rps) ? line.rps.toFixed(1) : '—').padStart(8)}`,
  );

async function main(): Promise<void> {
  say('starting PostgreSQL, Temporal, worker and API…');
  const stack = await startHotPathStack({ GATEWAY_ALLOW_PRIVATE_NETWORKS: 'true', RATE_LIMIT_MCP: '100000000' }, (line) => process.stderr.write(`${line}\n`));
  const target = await startTarget();
  const client = leanClient();
  const own = await startBareTemporal({
    address: stack.temporalAddress,
    namespace: stack.namespace,
    keyring: stack.keyring,
    lanes: 0,
    ...(stack.workerProcess ? { workerProcess: stack.workerProcess } : {}),
  });
  const stops: Array<() => Promise<void>> = [];
  try {
    const { url } = stack;
    const { operatorId, accessToken } = await benchOperator(url);
    const key = await post(url, '/api-keys', { operatorId, label: 'mcp bench' }, accessToken);
    await post(url, `/api-keys/${key.data.id}/mcp`, { mcp_enabled: true }, accessToken, 'PATCH');
    const trigger = {
      id: 'start',
      type: 'trigger.manual',
      params: { inputSchema: { type: 'object', properties: { playerId: { type: 'string' } }, required: ['playerId'] } },
    };
    const workflow = await post(
      url,
      '/workflows-api/workflows',
      {
        name: 'Bench ping',
        description: 'One HTTP request',
        active: true,
        mcp_exposed: true,
        nodes: [trigger, { id: 'ping', type: 'action.http_request', params: { method: 'GET', url: `${target.url}/ping?player={{ trigger.playerId }}` } }],
        edges: [{ from: 'start', to: 'ping' }],
      },
      accessToken,
    );
    // A run that stays working while its task is read: a delay longer than any bench (cancelled at the end).
    const waiting = await post(
      url,
      '/workflows-api/workflows',
      {
        name: 'Bench wait',
        description: 'Waits ten minutes',
        active: true,
        mcp_exposed: true,
        nodes: [trigger, { id: 'wait', type: 'action.delay', params: { seconds: 600 } }],
        edges: [{ from: 'start', to: 'wait' }],
      },
      accessToken,
    );
    const toolName = workflow.data.mcp_tool_name as string;
    const waitingToolName = waiting.data.mcp_tool_name as string;
    const apiKey = key.data.key as string;

    const { toolCall, rpc, createTask, polledTask, awaitedTask, checkResults } = mcpCalls(client, url, apiKey, toolName, CONCURRENCY);
    const createRow = (name: string, phase: TaskPhase): Row => ({ ...row(name, { latencies: phase.creates.sort((a, b) => a - b), seconds: NaN }), rps: NaN });
    const bareWorkflow = bareWorkflowRoundTrip(stack.temporal);
    const ownFetch = () => own.workflowFetch(`${target.url}/ping?player=p-1`);
    // The HTTP hop alone runs where the API runs: in this process, or apart from it with a client of its own.
    const hop = await bareHopWhereTheApiIs(
      stack,
      own,
      { shape: 'workflow', lanes: 0, target: { url: `${target.url}/ping?player=p-1`, headers: {} } },
      ownFetch,
    );
    stops.push(hop.close);
    const hopBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: toolName, arguments: { playerId: 'p-1' } } });
    const hopCall = () =>
      client.send('POST', hop.url, { 'content-type': 'application/json' }, hopBody).then(({ status, body }) => {
        if (status !== 200) throw new Error(`bare hop: HTTP ${status} ${body.slice(0, 200)}`);
      });

    say('warming up…');
    await measure(bareWorkflow, { count: 20, concurrency: 1, timeLimitMs: PHASE_TIME_LIMIT_MS });
    await measure(() => own.workflowActivity(), { count: 20, concurrency: 1, timeLimitMs: PHASE_TIME_LIMIT_MS });
    await measure(ownFetch, { count: 20, concurrency: 1, timeLimitMs: PHASE_TIME_LIMIT_MS });
    await measure(() => own.runShape(), { count: 20, concurrency: 1, timeLimitMs: PHASE_TIME_LIMIT_MS });
    await measure(toolCall, { count: 20, concurrency: 1, timeLimitMs: PHASE_TIME_LIMIT_MS });
    const warm = taskPhase();
    await measure(polledTask(warm), { count: 20, concurrency: 1, timeLimitMs: PHASE_TIME_LIMIT_MS });
    await measure(awaitedTask(warm), { count: 20, concurrency: 1, timeLimitMs: PHASE_TIME_LIMIT_MS });
    await checkResults(warm);
    say('measuring…');
    const sequential = { count: CALLS, concurrency: 1, timeLimitMs: PHASE_TIME_LIMIT_MS };
    const concurrent = { count: CONCURRENT_CALLS, concurrency: CONCURRENCY, timeLimitMs: PHASE_TIME_LIMIT_MS };
    const processes = {
      ...stack.cpu,
      ...(own.workerPid ? { 'own worker': { pid: own.workerPid, tree: false } } : {}),
      ...(hop.pid ? { hop: { pid: hop.pid, tree: false } } : {}),
    };
    const quiet = row(`bare, ${QUIET_GAP_MS} ms apart`, await measure(bareWorkflow, { ...sequential, gapMs: QUIET_GAP_MS }));
    // tools/call and its floor take turns call by call (A B B A…), in two halves, and at 4 concurrent in short phases:
    // the machine's speed drifts by up to 2× over tens of seconds (docs/benchmarks.md), more than rounds of 40 calls
    // could cancel.
    const halves: Array<[Measured, Measured]> = [];
    for (let half = 0; half < 2; half += 1) halves.push(await interleaved(ownFetch, toolCall, { count: CALLS / 2, timeLimitMs: PHASE_TIME_LIMIT_MS }));
    const [floorConcPhases, mcpConcPhases] = await alternatingPhases(ownFetch, toolCall, {
      pairs: PAIRS,
      count: PHASE_CALLS,
      concurrency: CONCURRENCY,
      timeLimitMs: PHASE_TIME_LIMIT_MS,
    });
    const hopFigures = await measureHop(
      { floor: ownFetch, hop: hopCall, platform: toolCall },
      { count: CALLS / 2, pairs: PAIRS / 2, phaseCount: PHASE_CALLS, concurrency: CONCURRENCY, timeLimitMs: PHASE_TIME_LIMIT_MS },
    );
    // The shapes beside the target's, for what the platform's worker and a run's own bookkeeping add: in rounds.
    const turns = { bare: [] as Measured[], ownBare: [] as Measured[], ownShape: [] as Measured[], bareConc: [] as Measured[], ownBareConc: [] as Measured[] };
    const perRound = { ...sequential, count: CALLS / ROUNDS };
    for (let round = 0; round < ROUNDS; round += 1) {
      turns.bare.push(await measure(bareWorkflow, perRound));
      turns.ownBare.push(await measure(() => own.workflowActivity(), perRound));
      turns.ownShape.push(await measure(() => own.runShape(), perRound));
      turns.bareConc.push(await measure(bareWorkflow, { ...concurrent, count: CONCURRENT_CALLS / ROUNDS }));
      turns.ownBareConc.push(await measure(() => own.workflowActivity(), { ...concurrent, count: CONCURRENT_CALLS / ROUNDS }));
    }
    const metered = async (request: () => Promise<void>): Promise<Cpu> => {
      const meter = cpuMeter(processes);
      const phase = await measure(request, perRound);
      return meter.perOperation(phase.latencies.length);
    };
    const cpu = await metered(toolCall);
    const floorCpu = await metered(ownFetch);
    const bareCpu = await metered(bareWorkflow);
    const hopCpu = await metered(hopCall);
    const bare = row('bare, back to back', pooled(turns.bare));
    const ownBare = row('own worker: bare', pooled(turns.ownBare));
    const ownFetchRow = row('own worker: GET act.', pooled(halves.map(([floor]) => floor)));
    const ownShape = row('own worker: LA+act.+LA', pooled(turns.ownShape));
    const mcp = row('MCP tools/call', pooled(halves.map(([, call]) => call)));
    const roundsRatio = (of: Measured[], to: Measured[]) => median(of.map((phase, i) => p50Ratio(phase, to[i]!)));
    const polled = taskPhase();
    const polledMeter = cpuMeter(processes);
    const taskPolled = row('task → completed', await measure(polledTask(polled), sequential));
    const polledCpu = polledMeter.perOperation(taskPolled.count);
    await checkResults(polled);
    const awaited = taskPhase();
    const awaitedMeter = cpuMeter(processes);
    const taskAwaited = row('task → tasks/result', await measure(awaitedTask(awaited), sequential));
    const awaitedCpu = awaitedMeter.perOperation(taskAwaited.count);
    const bareConc = row(`bare x${CONCURRENCY}`, pooled(turns.bareConc));
    const mcpConc = row(`tools/call x${CONCURRENCY}`, pooled(mcpConcPhases));
    const ownBareConc = row(`own worker: bare x${CONCURRENCY}`, pooled(turns.ownBareConc));
    const ownFetchConc = row(`own worker: GET x${CONCURRENCY}`, pooled(floorConcPhases));
    const polledConc = taskPhase();
    const taskPolledConc = row(`task → completed x${CONCURRENCY}`, await measure(polledTask(polledConc), concurrent));
    await checkResults(polledConc);
    const taskAwaitedConc = row(`task → tasks/result x${CONCURRENCY}`, await measure(awaitedTask(taskPhase()), concurrent));

    say('reading a working task…');
    const held = taskPhase();
    const taskId = await createTask(held, waitingToolName, 10 * 60_000);
    const readTask = async () => {
      const task = await rpc<Task>('tasks/get', { taskId });
      if (task.status !== 'working') throw new Error(`task ${taskId} is ${task.status}`);
    };
    const ping = () => rpc<object>('ping', {}).then(() => undefined);
    /** `tasks/get` and `ping` one after the other, in turns (each goes first every other time): both see the same server. */
    const reads = async (): Promise<{ get: Measured; ping: Measured }> => {
      const latencies = { get: [] as number[], ping: [] as number[] };
      const time = async (request: () => Promise<void>, into: number[]) => {
        const begin = performance.now();
        await request();
        into.push(performance.now() - begin);
      };
      for (let i = 0; i < READS; i += 1) {
        if (i % 2 === 0) await time(readTask, latencies.get).then(() => time(ping, latencies.ping));
        else await time(ping, latencies.ping).then(() => time(readTask, latencies.get));
      }
      const measured = (list: number[]) => ({ latencies: list.sort((a, b) => a - b), seconds: list.reduce((sum, ms) => sum + ms, 0) / 1000 });
      return { get: measured(latencies.get), ping: measured(latencies.ping) };
    };
    await reads();
    const idle = await reads();
    let loading = true;
    let loadCalls = 0;
    let loadFailure: unknown;
    const loadLane = async () => {
      while (loading) {
        await toolCall();
        loadCalls += 1;
      }
    };
    const loadStarted = performance.now();
    const load = Promise.all(Array.from({ length: CONCURRENCY }, loadLane)).catch((error: unknown) => {
      loadFailure = error;
      loading = false;
    });
    await sleep(LOAD_SETTLE_MS);
    const loadedFrom = loadCalls;
    const readsFrom = performance.now();
    const loaded = await reads();
    const loadRate = (loadCalls - loadedFrom) / ((performance.now() - readsFrom) / 1000);
    loading = false;
    await load;
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    if (loadFailure) throw loadFailure;
    const cancelled = await rpc<Task>('tasks/cancel', { taskId });
    if (cancelled.status !== 'cancelled') throw new Error(`tasks/cancel answered ${JSON.stringify(cancelled).slice(0, 300)}`);

    const profiling = await startProfile();
    const profiled = await measure(toolCall, { count: CALLS / 2, concurrency: 1, timeLimitMs: PHASE_TIME_LIMIT_MS });
    const profile = await profiling.stop('mcp-tools-call', profiled.latencies.length);

    say('');
    say(`${'case'.padEnd(24)} ${'calls'.padStart(6)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'calls/s'.padStart(8)}`);
    for (const line of [quiet, bare, ownBare, ownFetchRow, ownShape, mcp, createRow('task create', polled), taskPolled, taskAwaited]) printRow(line);
    for (const line of [bareConc, ownBareConc, ownFetchConc, mcpConc, createRow(`task create x${CONCURRENCY}`, polledConc), taskPolledConc, taskAwaitedConc])
      printRow(line);
    say('');
    say(
      `ratio tools/call / quiet bare: sequential p50 ${(mcp.p50 / quiet.p50).toFixed(2)}, ${CONCURRENCY} concurrent p50 ${(mcpConc.p50 / quiet.p50).toFixed(2)} (target ≤ 1.5)`,
    );
    const pairQuartiles = (of: Measured[], to: Measured[]) => {
      const ratios = of.map((phase, i) => p50Ratio(phase, to[i]!)).sort((x, y) => x - y);
      return `${percentile(ratios, 25).toFixed(2)}–${percentile(ratios, 75).toFixed(2)}`;
    };
    say(
      `ratio tools/call / the floor (own worker: workflow + an activity sending the tool's GET, back to back): sequential p50 ${(mcp.p50 / ownFetchRow.p50).toFixed(2)} ` +
        `(calls in turns, A B B A…; halves ${halves.map(([floor, call]) => p50Ratio(call, floor).toFixed(2)).join(', ')}), ` +
        `${CONCURRENCY} concurrent p50 ${(mcpConc.p50 / ownFetchConc.p50).toFixed(2)} (${PAIRS} pairs of ${PHASE_CALLS}-call phases in turns, pooled; pairs' quartiles ${pairQuartiles(mcpConcPhases, floorConcPhases)}) (target ≤ 1.2)`,
    );
    say(describeHop(hopFigures, { apart: hop.pid !== undefined, pairs: PAIRS / 2, concurrency: CONCURRENCY, platform: 'tools/call', concurrent: 'p50' }));
    say(
      `the platform's worker on the same bare shape: diagnostics / own worker's bare, median of ${ROUNDS} rounds: sequential p50 ${roundsRatio(turns.bare, turns.ownBare).toFixed(2)}, ${CONCURRENCY} concurrent p50 ${roundsRatio(turns.bareConc, turns.ownBareConc).toFixed(2)}`,
    );
    say(
      `a run recording its own begin and end (not tools/call's), no platform code (own worker): LA + activity + LA / workflow + activity, pooled p50 ${(ownShape.p50 / ownBare.p50).toFixed(2)}`,
    );
    say(
      `ratio task → completed / tools/call: sequential p50 ${(taskPolled.p50 / mcp.p50).toFixed(2)}, ${CONCURRENCY} concurrent p50 ${(taskPolledConc.p50 / mcpConc.p50).toFixed(2)}`,
    );
    say(
      `CPU per sequential call (a phase of ${perRound.count} each) — tools/call: ${formatCpu(cpu)}; the floor: ${formatCpu(floorCpu)}; bare: ${formatCpu(bareCpu)}; the floor behind the hop: ${formatCpu(hopCpu)}`,
    );
    say(`CPU per sequential task — polled: ${formatCpu(polledCpu)}; tasks/result: ${formatCpu(awaitedCpu)}`);
    say('');
    say(`${'read of a working task'.padEnd(24)} ${'calls'.padStart(6)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'calls/s'.padStart(8)}`);
    const [idleGet, idlePing, loadedGet, loadedPing] = [
      row('tasks/get, idle', idle.get),
      row('ping, idle', idle.ping),
      row('tasks/get, under load', loaded.get),
      row('ping, under load', loaded.ping),
    ];
    for (const line of [idleGet, idlePing, loadedGet, loadedPing]) printRow(line);
    say(
      `tasks/get − ping p50: idle ${(idleGet.p50 - idlePing.p50).toFixed(2)} ms, under load ${(loadedGet.p50 - loadedPing.p50).toFixed(2)} ms; load: ${CONCURRENCY} clients calling tools/call, ${loadRate.toFixed(1)} calls/s during the reads (${loadCalls} in ${loadSeconds.toFixed(1)} s)`,
    );
    say(`profiled round: ${profile}`);
    say("(own worker: a worker and queue of this bench, the platform's codec and nothing else; its GET act. — the floor — sends the");
    say(" tool's request to the same loopback server, its bare returns its input; bare: the diagnostics");
    say(" workflow, one normal activity, started and awaited through temporal/ on the platform's worker as the API starts its runs;");
    say(` task: tools/call with params.task on 2025-11-25; → completed polls tasks/get every ${POLL_MS} ms (a client polls at pollInterval, 2 s);`);
    say(' task create: that tools/call alone, timed in the → completed rows; reads: one lane, tasks/get and ping in turns;');
    say(
      stack.processes === 'one'
        ? ' node: this process — caller, API, worker and own worker; postgres: the server and its backends; temporal: its server;'
        : " load: this process — caller and HTTP target; api, worker: the platform's processes; own worker: the floor's; postgres: the server and its backends; temporal: its server; no start is eager;",
    );
    say(' every request goes out through node:http on a keep-alive agent, tools/bench/lib/httpClient.ts)');
  } finally {
    for (const stop of stops) await stop();
    client.close();
    await own.close();
    await target.close();
    await stack.stop();
  }
}

runBench(main);
