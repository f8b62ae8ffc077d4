/**
 * Temporal worker process: scale out by running more of these against the same task queue. The SDK's
 * runtime shuts the worker down gracefully on SIGINT and SIGTERM.
 */
import { loadConfig } from '../core/config';
import { createLogger } from '../core/logger';
import { createDb } from '../db/knex';
import { createWorker } from '../worker/worker';
import { databaseUrlOf, temporalAddressOf } from './addresses';
import { resolveKeyring } from './devSecrets';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, { process: 'worker' });
  const databaseUrl = databaseUrlOf(config);
  const db = createDb(databaseUrl, { poolMax: config.DATABASE_POOL_MAX, applicationName: 'operator-platform-worker' });
  const { worker, close } = await createWorker({ config, db, logger, address: temporalAddressOf(config), databaseUrl, keyring: resolveKeyring(config) });
  logger.info(
    {
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      metrics: config.WORKER_METRICS_PORT === undefined ? null : `http://${config.METRICS_HOST}:${config.WORKER_METRICS_PORT}/metrics`,
    },
    'worker running',
  );
  process.stdout.write('worker ready\n');
  await worker.run();
  await close();
  await db.destroy();
}

main().catch((error) => {
  process.stderr.write(`worker failed: ${(error as Error).message}\n`);
  process.exit(1);
});
