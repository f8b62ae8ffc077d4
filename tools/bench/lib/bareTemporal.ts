import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { Keyring } from '../../../core/crypto';
import { platformDataConverter } from '../../../temporal/dataConverter';
import * as activities from '../temporal/activities';
import { oneActivity, oneFetch, runShape } from '../temporal/workflows';
import { startBareLanes } from './bareLanes';
import { spawnReady } from './spawnReady';

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
  /** The queue its worker polls: a hop of its own may start lanes there (tools/bench/lib/bareHop.ts). */
  taskQueue: string;
  close(): Promise<void>;
}

export interface BareTemporalOptions {
  address: string;
  namespace: string;
  keyring: Keyring;
  lanes: number;
  /** Run the worker as a process of its own (tools/bench/temporal/bareWorker.ts), sealing with this hex data key. */
  workerProcess?: { dataEncryptionKey: string };
}

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
  const child = await spawnReady(
    path.resolve(__dirname, '../temporal/bareWorker.ts'),
    { TEMPORAL_ADDRESS: options.address, TEMPORAL_NAMESPACE: options.namespace, BARE_TASK_QUEUE: taskQueue, DATA_ENCRYPTION_KEY: dataEncryptionKey },
    /bare worker ready/,
    'the bare worker',
  );
  const connection = await Connection.connect({ address: options.address });
  return {
    client: new Client({ connection, namespace: options.namespace, dataConverter: platformDataConverter(options.keyring, options.namespace) }),
    pid: child.pid,
    async stop() {
      await child.stop();
      await connection.close();
    },
  };
}

export async function startBareTemporal(options: BareTemporalOptions): Promise<BareTemporal> {
  const taskQueue = `bench-bare-${randomBytes(4).toString('hex')}`;
  const { client, pid, stop } = options.workerProcess
    ? await workerApart(options, taskQueue, options.workerProcess.dataEncryptionKey)
    : await workerHere(options, taskQueue);
  const lanes = await startBareLanes(client, taskQueue, options.lanes);
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
    update: (url, headers) => lanes.update(url, headers),
    workflowActivity: () => execute(oneActivity, 'x'),
    workflowFetch: (url) => execute(oneFetch, { url, headers: {} }),
    runShape: () => execute(runShape, 'x'),
    workerPid: pid,
    taskQueue,
    async close() {
      await lanes.close();
      await stop();
    },
  };
}
