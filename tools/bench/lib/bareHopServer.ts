/**
 * The HTTP hop alone as a process of its own (`spawnBareHop`), the way the platform's API runs apart from the load and
 * the workers: a client on TEMPORAL_ADDRESS with the platform's payload codec sealed by DATA_ENCRYPTION_KEY serves the
 * bare Koa hop on a loopback port, each request one run of the bare shape on BARE_TASK_QUEUE (the bare worker's) that
 * GETs HOP_TARGET_URL with HOP_TARGET_HEADERS (JSON): with HOP_SHAPE=update (the gateway's) an Update of one of
 * BARE_LANES lanes it starts, with HOP_SHAPE=workflow (`tools/call`'s) a workflow with one activity, started and
 * awaited. Prints "bare hop at <url>", and stops on SIGTERM.
 */
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { Keyring, parseDataKey } from '../../../core/crypto';
import { platformDataConverter } from '../../../temporal/dataConverter';
import { startBareLanes } from './bareLanes';
import { serveBareHop } from './bareHop';
import { oneFetch } from '../temporal/workflows';

async function main(): Promise<void> {
  const env = process.env;
  const { TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: namespace = 'default', BARE_TASK_QUEUE: taskQueue, DATA_ENCRYPTION_KEY: key } = env;
  const { HOP_TARGET_URL: url, HOP_TARGET_HEADERS: headers = '{}', BARE_LANES: lanes = '8', HOP_SHAPE: shape = 'update' } = env;
  if (!address || !taskQueue || !key || !url) throw new Error('TEMPORAL_ADDRESS, BARE_TASK_QUEUE, DATA_ENCRYPTION_KEY and HOP_TARGET_URL are required');
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace, dataConverter: platformDataConverter(new Keyring(parseDataKey(key), []), namespace) });
  const target = { url, headers: JSON.parse(headers) as Record<string, string> };
  const pool = shape === 'update' ? await startBareLanes(client, taskQueue, Number(lanes), `${taskQueue}-hop-lane`) : undefined;
  const run = () => client.workflow.execute(oneFetch, { taskQueue, workflowId: `${taskQueue}-hop-${randomBytes(6).toString('hex')}`, args: [target] });
  const hop = await serveBareHop(pool ? () => pool.update(target.url, target.headers) : run);
  process.stdout.write(`bare hop at ${hop.url}\n`);
  await new Promise<void>((resolve) => process.once('SIGTERM', () => resolve()));
  await hop.close();
  await pool?.close();
  await connection.close();
}

main().catch((error) => {
  process.stderr.write(`bare hop failed: ${(error as Error).message}\n`);
  process.exit(1);
});
