/**
 * `npm run bench:temporal`: the floor of one synchronous call through Temporal on the local dev server, and
 * what sets it. A workflow with one activity (the other benchmarks' baseline) is timed back to back and with a
 * pause before each call, on a dev server with the server's own defaults and on one with the platform's
 * `deploy/temporal-dynamic-config.yaml`; then the other shapes a call can take on the latter (eager start, a
 * local activity, an Update of a running workflow). Nothing of the platform runs: no PostgreSQL, no API.
 */
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { loadConfig } from '../../core/config';
import { Keyring } from '../../core/crypto';
import { freePort } from '../../devstack/freePort';
import { findTemporalCli } from '../../devstack/temporalCli';
import { startTemporalDevServer, type TemporalDevServer } from '../../devstack/temporalDevServer';
import { platformDataConverter } from '../../temporal/dataConverter';
import { runBench } from './lib/baseline';
import { cpuMeter } from './lib/cpu';
import { measure, percentile, say, type Measured } from './lib/stats';
import * as activities from './temporal/activities';
import { echoUpdate, oneActivity, oneLocalActivity, updateLane } from './temporal/workflows';

const CALLS = 120;
const QUIET_GAP_MS = 200;
const TASK_QUEUE = 'bench-temporal';
/** Every payload is sealed as the platform seals it (`temporal/payloadCodec.ts`), so the shapes include the codec's cost. */
const dataConverter = platformDataConverter(new Keyring(randomBytes(32)), 'default');

interface Stack {
  server: TemporalDevServer;
  worker: Worker;
  running: Promise<void>;
  native: NativeConnection;
  grpc: Connection;
}

async function startStack(serverDefaults: boolean): Promise<Stack> {
  const binary = await findTemporalCli({ explicitPath: loadConfig().TEMPORAL_CLI_PATH, log: (line) => say(line) });
  const server = await startTemporalDevServer({
    binary,
    port: await freePort(),
    namespace: 'default',
    logLevel: 'error',
    serverDefaults,
    log: () => undefined,
  });
  const native = await NativeConnection.connect({ address: server.address });
  const worker = await Worker.create({
    connection: native,
    taskQueue: TASK_QUEUE,
    workflowsPath: require.resolve('./temporal/workflows'),
    activities,
    dataConverter,
  });
  const grpc = await Connection.connect({ address: server.address });
  return { server, worker, running: worker.run(), native, grpc };
}

async function stopStack(stack: Stack): Promise<void> {
  stack.worker.shutdown();
  await stack.running;
  await stack.grpc.close();
  await stack.native.close();
  await stack.server.stop();
}

interface Line {
  name: string;
  backToBack: Measured;
  quiet: Measured;
  serverCpuMs: number;
}

async function time(name: string, stack: Stack, call: () => Promise<unknown>): Promise<Line> {
  const request = () => call().then(() => undefined);
  await measure(request, { count: 20, concurrency: 1, timeLimitMs: 60_000 });
  const meter = cpuMeter({ temporal: { pid: stack.server.pid, tree: true } });
  const backToBack = await measure(request, { count: CALLS, concurrency: 1, timeLimitMs: 60_000 });
  const serverCpuMs = meter.perOperation(backToBack.latencies.length).temporal ?? NaN;
  const quiet = await measure(request, { count: CALLS / 2, concurrency: 1, timeLimitMs: 60_000, gapMs: QUIET_GAP_MS });
  return { name, backToBack, quiet, serverCpuMs };
}

const start = (client: Client, workflow: typeof oneActivity, eager: boolean) => () =>
  client.workflow.execute(workflow, {
    taskQueue: TASK_QUEUE,
    workflowId: `floor-${Math.random().toString(36).slice(2)}`,
    args: ['x'],
    requestEagerStart: eager,
  });

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const lines: Line[] = [];

  say('dev server with its own defaults…');
  const defaults = await startStack(true);
  try {
    lines.push(
      await time('server defaults: workflow + activity', defaults, start(new Client({ connection: defaults.grpc, dataConverter }), oneActivity, false)),
    );
  } finally {
    await stopStack(defaults);
  }

  say('dev server with deploy/temporal-dynamic-config.yaml…');
  const tuned = await startStack(false);
  try {
    const grpc = new Client({ connection: tuned.grpc, dataConverter });
    const shared = new Client({ connection: tuned.native, dataConverter });
    lines.push(await time('platform config: workflow + activity', tuned, start(grpc, oneActivity, false)));
    lines.push(await time('  + eager start (client on the worker connection)', tuned, start(shared, oneActivity, true)));
    lines.push(await time('  + local activity instead', tuned, start(shared, oneLocalActivity, true)));
    const lane = await shared.workflow.start(updateLane, { taskQueue: TASK_QUEUE, workflowId: `floor-lane-${Date.now()}` });
    lines.push(await time('  Update of a running workflow (local activity)', tuned, () => lane.executeUpdate(echoUpdate, { args: ['x'] })));
    await lane.terminate('benchmark done');
  } finally {
    await stopStack(tuned);
  }

  say('');
  say(`${'one call through Temporal'.padEnd(50)} ${'b2b p50'.padStart(8)} ${'b2b p95'.padStart(8)} ${'quiet p50'.padStart(10)} ${'server CPU'.padStart(11)}`);
  for (const line of lines) {
    const [b50, b95, q50] = [percentile(line.backToBack.latencies, 50), percentile(line.backToBack.latencies, 95), percentile(line.quiet.latencies, 50)];
    say(
      `${line.name.padEnd(50)} ${b50.toFixed(1).padStart(8)} ${b95.toFixed(1).padStart(8)} ${q50.toFixed(1).padStart(10)} ${line.serverCpuMs.toFixed(1).padStart(8)} ms`,
    );
  }
  say('');
  say(`(ms; back to back: ${CALLS} calls one after another; quiet: ${CALLS / 2} calls, each ${QUIET_GAP_MS} ms after the last; server CPU: the dev server's`);
  say(' CPU per back-to-back call. The worker runs in this process; every call starts and awaits from here.)');
}

runBench(main);
