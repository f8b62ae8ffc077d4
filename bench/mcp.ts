/**
 * `npm run bench:mcp`: p50/p95 of MCP `tools/call` for a one-action workflow (an HTTP request to a loopback
 * server) beside a bare Temporal workflow+activity round trip (the diagnostics workflow) measured in the same
 * run — as a quiet server sees it (a pause before each call) and back to back — and the ratio of tools/call to
 * the quiet baseline (target ≤ 1.5), sequential and 4 concurrent. Starts its own embedded PostgreSQL, Temporal
 * dev server, in-process worker and API; loopback only; bounded in request count and time; stops by itself.
 */
import { startLoopbackServer, type LoopbackServer } from '../devstack/loopbackServer';
import { bareWorkflowRoundTrip, runBench } from './lib/baseline';
import { cpuMeter, formatCpu } from './lib/cpu';
import { startProfile } from './lib/profile';
import { benchOperator, post, startBenchStack } from './lib/stack';
import { measure, percentile, say, type Measured } from './lib/stats';

const CALLS = 200;
const CONCURRENT_CALLS = 200;
const CONCURRENCY = 4;
const PHASE_TIME_LIMIT_MS = 60_000;
/** The pause before each call of the quiet baseline: long enough for every poller to be waiting again. */
const QUIET_GAP_MS = 200;

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

function row(name: string, phase: Measured) {
  const { latencies, seconds } = phase;
  return { name, count: latencies.length, p50: percentile(latencies, 50), p95: percentile(latencies, 95), rps: latencies.length / seconds };
}

async function main(): Promise<void> {
  say('starting PostgreSQL, Temporal, worker and API…');
  const stack = await startBenchStack({ GATEWAY_ALLOW_PRIVATE_NETWORKS: 'true', RATE_LIMIT_MCP: '100000000' }, (line) => process.stderr.write(`${line}\n`));
  const target = await startTarget();
  try {
    const { deps, url } = stack;
    const { operatorId, accessToken } = await benchOperator(url);
    const key = await post(url, '/api-keys', { operatorId, label: 'mcp bench' }, accessToken);
    await post(url, `/api-keys/${key.data.id}/mcp`, { mcp_enabled: true }, accessToken, 'PATCH');
    const workflow = await post(
      url,
      '/workflows-api/workflows',
      {
        name: 'Bench ping',
        description: 'One HTTP request',
        active: true,
        mcp_exposed: true,
        nodes: [
          {
            id: 'start',
            type: 'trigger.manual',
            params: { inputSchema: { type: 'object', properties: { playerId: { type: 'string' } }, required: ['playerId'] } },
          },
          { id: 'ping', type: 'action.http_request', params: { method: 'GET', url: `${target.url}/ping?player={{ trigger.playerId }}` } },
        ],
        edges: [{ from: 'start', to: 'ping' }],
      },
      accessToken,
    );
    const toolName = workflow.data.mcp_tool_name as string;
    const apiKey = key.data.key as string;

    let id = 0;
    const toolCall = async () => {
      const answer = await post(
        url,
        '/mcp-server',
        { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: toolName, arguments: { playerId: 'p-1' } } },
        apiKey,
      );
      if (answer.result?.isError !== false) throw new Error(`tools/call failed: ${JSON.stringify(answer).slice(0, 300)}`);
    };
    const bareWorkflow = bareWorkflowRoundTrip(deps);

    say('warming up…');
    await measure(bareWorkflow, { count: 20, concurrency: 1, timeLimitMs: PHASE_TIME_LIMIT_MS });
    await measure(toolCall, { count: 20, concurrency: 1, timeLimitMs: PHASE_TIME_LIMIT_MS });
    say('measuring…');
    const sequential = { count: CALLS, concurrency: 1, timeLimitMs: PHASE_TIME_LIMIT_MS };
    const quiet = row(`bare, ${QUIET_GAP_MS} ms apart`, await measure(bareWorkflow, { ...sequential, gapMs: QUIET_GAP_MS }));
    const bareMeter = cpuMeter({
      node: { pid: stack.pids.node, tree: false },
      postgres: { pid: stack.pids.postgres, tree: true },
      temporal: { pid: stack.pids.temporal, tree: true },
    });
    const bare = row('bare, back to back', await measure(bareWorkflow, sequential));
    const bareCpu = bareMeter.perOperation(bare.count);
    const meter = cpuMeter({
      node: { pid: stack.pids.node, tree: false },
      postgres: { pid: stack.pids.postgres, tree: true },
      temporal: { pid: stack.pids.temporal, tree: true },
    });
    const mcp = row('MCP tools/call', await measure(toolCall, sequential));
    const cpu = meter.perOperation(mcp.count);
    const bareConc = row(
      `bare x${CONCURRENCY}`,
      await measure(bareWorkflow, { count: CONCURRENT_CALLS, concurrency: CONCURRENCY, timeLimitMs: PHASE_TIME_LIMIT_MS }),
    );
    const mcpConc = row(
      `tools/call x${CONCURRENCY}`,
      await measure(toolCall, { count: CONCURRENT_CALLS, concurrency: CONCURRENCY, timeLimitMs: PHASE_TIME_LIMIT_MS }),
    );
    const profiling = await startProfile();
    const profiled = await measure(toolCall, { count: CALLS / 2, concurrency: 1, timeLimitMs: PHASE_TIME_LIMIT_MS });
    const profile = await profiling.stop('mcp-tools-call', profiled.latencies.length);

    say('');
    say(`${'case'.padEnd(24)} ${'calls'.padStart(6)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'calls/s'.padStart(8)}`);
    for (const line of [quiet, bare, mcp, bareConc, mcpConc]) {
      say(
        `${line.name.padEnd(24)} ${String(line.count).padStart(6)} ${line.p50.toFixed(2).padStart(8)} ${line.p95.toFixed(2).padStart(8)} ${line.rps.toFixed(1).padStart(8)}`,
      );
    }
    say('');
    say(
      `ratio tools/call / quiet bare: sequential p50 ${(mcp.p50 / quiet.p50).toFixed(2)}, ${CONCURRENCY} concurrent p50 ${(mcpConc.p50 / quiet.p50).toFixed(2)} (target ≤ 1.5)`,
    );
    say(
      `ratio tools/call / back-to-back bare: sequential p50 ${(mcp.p50 / bare.p50).toFixed(2)}, ${CONCURRENCY} concurrent p50 ${(mcpConc.p50 / bareConc.p50).toFixed(2)}`,
    );
    say(`CPU per sequential call — tools/call: ${formatCpu(cpu)}; bare: ${formatCpu(bareCpu)}`);
    say(`profiled round: ${profile}`);
    say('(bare: the diagnostics workflow, one normal activity, started and awaited through temporal/ as the API starts its runs;');
    say(' node: this process — caller, API and worker; postgres: the server and its backends; temporal: the dev server)');
  } finally {
    await target.close();
    await stack.stop();
  }
}

runBench(main);
