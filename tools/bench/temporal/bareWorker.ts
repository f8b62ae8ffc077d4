/**
 * The bare shapes' worker as a process of its own (`startBareTemporal({ workerProcess })`), the way the platform's
 * workers run apart from its API: polls BARE_TASK_QUEUE on TEMPORAL_ADDRESS with the platform's payload codec sealed
 * by DATA_ENCRYPTION_KEY, prints "bare worker ready", and shuts down on SIGTERM.
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import { Keyring, parseDataKey } from '../../../core/crypto';
import { platformDataConverter } from '../../../temporal/dataConverter';
import * as activities from './activities';

async function main(): Promise<void> {
  const { TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: namespace = 'default', BARE_TASK_QUEUE: taskQueue, DATA_ENCRYPTION_KEY: key } = process.env;
  if (!address || !taskQueue || !key) throw new Error('TEMPORAL_ADDRESS, BARE_TASK_QUEUE and DATA_ENCRYPTION_KEY are required');
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    namespace,
    taskQueue,
    workflowsPath: require.resolve('./workflows'),
    activities,
    dataConverter: platformDataConverter(new Keyring(parseDataKey(key), []), namespace),
  });
  process.stdout.write('bare worker ready\n');
  await worker.run();
  await connection.close();
}

main().catch((error) => {
  process.stderr.write(`bare worker failed: ${(error as Error).message}\n`);
  process.exit(1);
});
