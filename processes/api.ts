/** Production API process: migrations, then the HTTP server. Workers run as separate processes (`processes/worker.ts`). */
import '../core/tracingPreload';
import { loadConfig } from '../core/config';
import { createLogger } from '../core/logger';
import { startTracing } from '../core/tracing';
import { createDb } from '../db/knex';
import { migrateLatest } from '../db/migrate';
import { ensurePlatformSchedules } from '../temporal/platformSchedules';
import { databaseUrlOf } from './addresses';
import { startApiServer } from './apiServer';
import { buildAppDeps } from './appDeps';

async function main(): Promise<void> {
  const tracing = startTracing('operator-platform-api');
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, { process: 'api' });
  const db = createDb(databaseUrlOf(config), { poolMax: config.DATABASE_POOL_MAX, applicationName: 'operator-platform-api' });
  await migrateLatest(db, { onLockWait: (attempt) => logger.warn(attempt, 'migrations gave way to a lock; trying again') });
  const deps = await buildAppDeps(config, logger, db);
  if (config.PLATFORM_SCHEDULES) await ensurePlatformSchedules(deps.temporal);
  const api = await startApiServer(deps);
  logger.info({ url: api.url, metrics: api.metricsUrl ?? null }, 'API listening');
  const stop = async () => {
    await api.close();
    await tracing?.shutdown();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

main().catch((error) => {
  process.stderr.write(`API failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});
