import { randomBytes } from 'node:crypto';
import { Client } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { Keyring } from '../../core/crypto';
import { platformDataConverter } from '../../temporal/dataConverter';
import * as activities from '../temporal/activities';
import { fetchUpdate, oneActivity, oneFetch, runShape, updateLane } from '../temporal/workflows';

/**
 * The bare Temporal shapes the platform's hot paths are built on, run on the same Temporal server as the platform in
 * the same benchmark, by a worker of their own in this process on a queue of their own, with the platform's payload
 * codec (so sealing is in the floor too) and nothing else of the platform: no HTTP API, no authentication, no
 * database. `update` is the gateway's shape — an Update of a running workflow answered by a local activity that sends
 * the same GET —, one lane per call in flight as the gateway's lanes; `workflowActivity` is `tools/call`'s — a
 * workflow with one normal activity, started and awaited —, and `runShape` the commands an automation run adds around it.
 */
export interface BareTemporal {
  /** One Update of an idle lane, whose local activity GETs `url` with `headers` and returns the answer's JSON. */
  update(url: string, headers: Record<string, string>): Promise<void>;
  /** One workflow with one activity, started (eagerly, as the platform's in-process API does) and awaited. */
  workflowActivity(): Promise<void>;
  /** The same, its activity sending one GET to `url`: the floor of a tool whose action is that request. */
  workflowFetch(url: string): Promise<void>;
  /** The same, with a local activity before and after the activity: the commands of a one-action automation run. */
  runShape(): Promise<void>;
  close(): Promise<void>;
}

export async function startBareTemporal(options: { address: string; namespace: string; keyring: Keyring; lanes: number }): Promise<BareTemporal> {
  const taskQueue = `bench-bare-${randomBytes(4).toString('hex')}`;
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
  const client = new Client({ connection, namespace: options.namespace, dataConverter });
  const idle = await Promise.all(
    Array.from({ length: options.lanes }, (_, index) => client.workflow.start(updateLane, { taskQueue, workflowId: `${taskQueue}-lane-${index}` })),
  );
  const waiting: Array<(lane: (typeof idle)[number]) => void> = [];
  const take = () => idle.pop() ?? new Promise<(typeof idle)[number]>((resolve) => waiting.push(resolve));
  const give = (lane: (typeof idle)[number]) => {
    const next = waiting.shift();
    if (next) next(lane);
    else idle.push(lane);
  };
  const lanes = [...idle];
  /** Started eagerly, as the platform's in-process API starts its runs, and awaited. */
  const execute = async <A extends unknown[]>(workflow: (...args: A) => Promise<unknown>, ...args: A) => {
    await client.workflow.execute(workflow, { taskQueue, workflowId: `${taskQueue}-${randomBytes(6).toString('hex')}`, args, requestEagerStart: true });
  };
  return {
    async update(url, headers) {
      const lane = await take();
      try {
        await lane.executeUpdate(fetchUpdate, { args: [{ url, headers }] });
      } finally {
        give(lane);
      }
    },
    workflowActivity: () => execute(oneActivity, 'x'),
    workflowFetch: (url) => execute(oneFetch, { url, headers: {} }),
    runShape: () => execute(runShape, 'x'),
    async close() {
      await Promise.all(lanes.map((lane) => lane.terminate('benchmark done').catch(() => undefined)));
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}
