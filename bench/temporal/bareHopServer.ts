/**
 * The HTTP hop alone as a process of its own (`spawnBareHop`), the way the platform's API runs apart from the load and
 * the workers: a client on TEMPORAL_ADDRESS with the platform's payload codec sealed by DATA_ENCRYPTION_KEY starts
 * BARE_LANES lanes on BARE_TASK_QUEUE (the bare worker's), serves the bare Koa hop on a loopback port — each request
 * one Update whose local activity GETs HOP_TARGET_URL with HOP_TARGET_HEADERS (JSON) —, prints "bare hop at <url>",
 * and stops on SIGTERM.
 */
import { Client, Connection } from '@temporalio/client';
import { Keyring, parseDataKey } from '../../core/crypto';
import { platformDataConverter } from '../../temporal/dataConverter';
import { startBareLanes } from '../lib/bareLanes';
import { serveBareHop } from '../lib/bareHop';

async function main(): Promise<void> {
  const env = process.env;
  const { TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: namespace = 'default', BARE_TASK_QUEUE: taskQueue, DATA_ENCRYPTION_KEY: key } = env;
  const { HOP_TARGET_URL: url, HOP_TARGET_HEADERS: headers = '{}', BARE_LANES: lanes = '8' } = env;
  if (!address || !taskQueue || !key || !url) throw new Error('TEMPORAL_ADDRESS, BARE_TASK_QUEUE, DATA_ENCRYPTION_KEY and HOP_TARGET_URL are required');
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace, dataConverter: platformDataConverter(new Keyring(parseDataKey(key), []), namespace) });
  const pool = await startBareLanes(client, taskQueue, Number(lanes), `${taskQueue}-hop-lane`);
  const targetHeaders = JSON.parse(headers) as Record<string, string>;
  const hop = await serveBareHop(() => pool.update(url, targetHeaders));
  process.stdout.write(`bare hop at ${hop.url}\n`);
  await new Promise<void>((resolve) => process.once('SIGTERM', () => resolve()));
  await hop.close();
  await pool.close();
  await connection.close();
}

main().catch((error) => {
  process.stderr.write(`bare hop failed: ${(error as Error).message}\n`);
  process.exit(1);
});
