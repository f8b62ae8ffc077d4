/**
 * `npm start`: everything for a newcomer in one process tree — PostgreSQL (embedded unless
 * DATABASE_URL), Temporal (`temporal server start-dev` unless TEMPORAL_ADDRESS), migrations, the worker
 * and the API with the dashboard (the npm script builds `web/` first when it is stale). Ctrl-C stops all
 * of it, children included.
 */
import { loadConfig } from '../core/config';
import { createLogger } from '../core/logger';
import { createDb } from '../db/knex';
import { migrateLatest } from '../db/migrate';
import { startLocalStack } from '../services/localStack';
import { buildAppDeps, startApiServer } from '../services/runtime';
import { ensurePlatformSchedules } from '../temporal/platformSchedules';
import { createWorker } from '../worker/worker';

const DEFAULT_METRICS_PORT = 9464;
const DEFAULT_WORKER_METRICS_PORT = 9465;

async function main(): Promise<void> {
  const base = loadConfig();
  const logger = createLogger(base.LOG_LEVEL);
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const stack = await startLocalStack(base, say);
  const config = loadConfig({
    DATABASE_URL: stack.databaseUrl,
    TEMPORAL_ADDRESS: stack.temporalAddress,
    TEMPORAL_UI_URL: base.TEMPORAL_UI_URL ?? stack.temporalUiUrl ?? undefined,
    // Metrics on by default here, on loopback listeners apart from the dashboard's port (docs/metrics.md).
    METRICS_PORT: String(base.METRICS_PORT ?? DEFAULT_METRICS_PORT),
    WORKER_METRICS_PORT: String(base.WORKER_METRICS_PORT ?? DEFAULT_WORKER_METRICS_PORT),
    // A local stack: any Owner may read sealed Temporal payloads in the UI (docs/temporal-codec.md); production lists operator ids.
    TEMPORAL_CODEC_OPERATORS: base.TEMPORAL_CODEC_OPERATORS ?? (base.NODE_ENV === 'production' ? undefined : '*'),
  });

  let stopping = false;
  const cleanups: Array<() => Promise<void>> = [stack.stop];
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`\n${signal}: stopping…`);
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => logger.error({ err: { message: (error as Error).message } }, 'stop failed'));
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    const db = createDb(stack.databaseUrl, { poolMax: config.DATABASE_POOL_MAX });
    const applied = await migrateLatest(db);
    if (applied.length > 0) say(`applied ${applied.length} migration(s)`);

    const { worker, temporal, close } = await createWorker({ config, db, logger, address: stack.temporalAddress, databaseUrl: stack.databaseUrl });
    const workerRun = worker.run();
    cleanups.push(async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await workerRun;
      await close();
    });

    const deps = await buildAppDeps(config, logger, db, temporal);
    await ensurePlatformSchedules(deps.temporal);
    const api = await startApiServer(deps);
    cleanups.push(api.close);

    say('');
    say(`Dashboard    ${api.url}/   ← open this in a browser`);
    say(`API          ${api.url}   (health: ${api.url}/healthz, OpenAPI: ${api.url}/openapi.json)`);
    if (stack.temporalUiUrl) say(`Temporal UI  ${stack.temporalUiUrl}   (payloads sealed; an Owner reads them through ${api.url}/temporal-codec: docs/temporal-codec.md)`);
    say(`Temporal     ${stack.temporalAddress}  task queue "${config.TEMPORAL_TASK_QUEUE}"`);
    say(`Metrics      ${api.metricsUrl ?? '(off)'}   (worker and Temporal SDK: http://${config.METRICS_HOST}:${config.WORKER_METRICS_PORT}/metrics)`);
    say('Press Ctrl-C to stop.');
  } catch (error) {
    logger.fatal({ err: { message: (error as Error).message, stack: (error as Error).stack } }, 'start failed');
    await shutdown('error');
  }
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
});
