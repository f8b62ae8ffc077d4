/**
 * Temporal worker process: scale out by running more of these against the same task queues, each polling both or,
 * with WORKER_QUEUES, one role. The SDK's runtime shuts the workers down gracefully on SIGINT and SIGTERM.
 */
import '../core/tracingPreload';
import { loadConfig } from '../core/config';
import { createLogger } from '../core/logger';
import { startTracing } from '../core/tracing';
import { createDb } from '../db/knex';
import { describeTemporalConnection, temporalConnectionOptions } from '../temporal/connectionOptions';
import { createWorker } from '../worker/worker';
import { databaseUrlOf, temporalAddressOf } from './addresses';
import { resolveKeyring } from './devSecrets';

async function main(): Promise<void> {
  const tracing = startTracing('operator-platform-worker');
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, { process: 'worker' });
  const databaseUrl = databaseUrlOf(config);
  const db = createDb(databaseUrl, { poolMax: config.DATABASE_POOL_MAX, applicationName: 'operator-platform-worker' });
  const address = temporalAddressOf(config);
  const { worker, queues, close } = await createWorker({ config, db, logger, address, databaseUrl, keyring: resolveKeyring(config) });
  logger.info(
    {
      taskQueues: queues.map((queue) => ({ ...queue.slots, role: queue.role, taskQueue: queue.taskQueue })),
      temporal: describeTemporalConnection(temporalConnectionOptions(config, address)),
      metrics: config.WORKER_METRICS_PORT === undefined ? null : `http://${config.METRICS_HOST}:${config.WORKER_METRICS_PORT}/metrics`,
    },
    'worker running',
  );
  process.stdout.write('worker ready\n');
  await worker.run();
  await close();
  await db.destroy();
  await tracing?.shutdown();
}

main().catch((error) => {
  process.stderr.write(`worker failed: ${(error as Error).message}\n`);
  process.exit(1);
});
