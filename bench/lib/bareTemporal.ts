import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { Keyring } from '../../core/crypto';
import { platformDataConverter } from '../../temporal/dataConverter';
import { LANE_CALLS_PER_RUN } from '../../workflows/gatewayCall';
import * as activities from '../temporal/activities';
import { fetchUpdate, oneActivity, oneFetch, runShape, updateLane } from '../temporal/workflows';

/**
 * The bare Temporal shapes the platform's hot paths are built on, run on the same Temporal server as the platform in
 * the same benchmark, by a worker of their own on a queue of their own, with the platform's payload codec (so sealing
 * is in the floor too) and nothing else of the platform: no HTTP API, no authentication, no database. `update` is the
 * gateway's shape — an Update of a running workflow answered by a local activity that sends the same GET —, one lane
 * per call in flight as the gateway's lanes; `workflowActivity` is `tools/call`'s — a workflow with one normal
 * activity, started and awaited —, and `runShape` the commands an automation run adds around it.
 *
 * The worker runs where the platform's does: in this process beside the client, sharing its connection (starts are
 * eager), when the benchmark runs the platform in one process; in a process of its own (`workerProcess`, the client
 * on a connection of its own) when the platform's API and worker are separate processes (BENCH_PROCESSES=separate).
 */
export interface BareTemporal {
  /** One Update of an idle lane, whose local activity GETs `url` with `headers`: the answer's JSON. */
  update(url: string, headers: Record<string, string>): Promise<unknown>;
  /** One workflow with one activity, started (eagerly when the worker is in this process) and awaited. */
  workflowActivity(): Promise<void>;
  /** The same, its activity sending one GET to `url`: the floor of a tool whose action is that request. */
  workflowFetch(url: string): Promise<void>;
  /** The same, with a local activity before and after the activity: the commands of a one-action automation run. */
  runShape(): Promise<void>;
  /** The worker's process when it runs apart, for CPU accounting. */
  workerPid: number | undefined;
  close(): Promise<void>;
}

export interface BareTemporalOptions {
  address: string;
  namespace: string;
  keyring: Keyring;
  lanes: number;
  /** Run the worker as a process of its own (bench/temporal/bareWorker.ts), sealing with this hex data key. */
  workerProcess?: { dataEncryptionKey: string };
}

const READY_TIMEOUT_MS = 120_000;

interface RunningWorker {
  client: Client;
  pid: number | undefined;
  stop(): Promise<void>;
}

async function workerHere(options: BareTemporalOptions, taskQueue: string): Promise<RunningWorker> {
  const dataConverter = platformDataConverter(options.keyring, options.namespace);
  const connection = await NativeConnection.connect({ address: options.address });
  const worker = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue,
    workflowsPath: require.resolve('../temporal/workflows'),
    activities,
    dataConverter,
  });
  const running = worker.run();
  return {
    client: new Client({ connection, namespace: options.namespace, dataConverter }),
    pid: undefined,
    async stop() {
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

async function workerApart(options: BareTemporalOptions, taskQueue: string, dataEncryptionKey: string): Promise<RunningWorker> {
  // PROCESS_PROFILE_DIR: a V8 CPU profile at exit, as the platform's processes write (processes/processStack.ts).
  const profile = process.env.PROCESS_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROCESS_PROFILE_DIR}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', path.resolve(__dirname, '../temporal/bareWorker.ts')], {
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: options.address,
      TEMPORAL_NAMESPACE: options.namespace,
      BARE_TASK_QUEUE: taskQueue,
      DATA_ENCRYPTION_KEY: dataEncryptionKey,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the bare worker did not become ready')), READY_TIMEOUT_MS);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('bare worker ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the bare worker exited (${child.exitCode ?? child.signalCode})`));
    });
  }).catch((error) => {
    child.kill('SIGKILL');
    throw error;
  });
  const connection = await Connection.connect({ address: options.address });
  return {
    client: new Client({ connection, namespace: options.namespace, dataConverter: platformDataConverter(options.keyring, options.namespace) }),
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await connection.close();
    },
  };
}

export async function startBareTemporal(options: BareTemporalOptions): Promise<BareTemporal> {
  const taskQueue = `bench-bare-${randomBytes(4).toString('hex')}`;
  const { client, pid, stop } = options.workerProcess
    ? await workerApart(options, taskQueue, options.workerProcess.dataEncryptionKey)
    : await workerHere(options, taskQueue);
  const idle = await Promise.all(
    Array.from({ length: options.lanes }, (_, index) =>
      client.workflow.start(updateLane, { taskQueue, workflowId: `${taskQueue}-lane-${index}`, args: [LANE_CALLS_PER_RUN] }),
    ),
  );
  const waiting: Array<(lane: (typeof idle)[number]) => void> = [];
  const take = () => idle.pop() ?? new Promise<(typeof idle)[number]>((resolve) => waiting.push(resolve));
  const give = (lane: (typeof idle)[number]) => {
    const next = waiting.shift();
    if (next) next(lane);
    else idle.push(lane);
  };
  const lanes = [...idle];
  /** Started eagerly when the worker shares the client's connection, as the platform's in-process API starts its runs, and awaited. */
  const execute = async <A extends unknown[]>(workflow: (...args: A) => Promise<unknown>, ...args: A) => {
    await client.workflow.execute(workflow, {
      taskQueue,
      workflowId: `${taskQueue}-${randomBytes(6).toString('hex')}`,
      args,
      requestEagerStart: !options.workerProcess,
    });
  };
  return {
    async update(url, headers) {
      const lane = await take();
      try {
        // The handle follows the lane's chain of runs; an Update that reached a run as it rolled over is sent again, as the gateway's lanes do.
        for (let attempt = 0; ; attempt += 1) {
          try {
            return await lane.executeUpdate(fetchUpdate, { args: [{ url, headers }] });
          } catch (error) {
            if (attempt >= 3 || !(error instanceof WorkflowNotFoundError)) throw error;
          }
        }
      } finally {
        give(lane);
      }
    },
    workflowActivity: () => execute(oneActivity, 'x'),
    workflowFetch: (url) => execute(oneFetch, { url, headers: {} }),
    runShape: () => execute(runShape, 'x'),
    workerPid: pid,
    async close() {
      await Promise.all(lanes.map((lane) => lane.terminate('benchmark done').catch(() => undefined)));
      await stop();
    },
  };
}
