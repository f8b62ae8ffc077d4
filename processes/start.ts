/**
 * `npm start`: everything for a newcomer in one process tree — PostgreSQL (embedded unless
 * DATABASE_URL), Temporal (`temporal server start-dev` unless TEMPORAL_ADDRESS), migrations, the worker
 * and the API with the dashboard (the npm script builds `web/` first when it is stale). Ctrl-C stops all
 * of it, children included.
 */
import '../core/tracingPreload';
import { loadConfig } from '../core/config';
import { createLogger } from '../core/logger';
import { startLocalStack } from '../devstack/localStack';
import { startStack } from './stack';

const DEFAULT_METRICS_PORT = 9464;
const DEFAULT_WORKER_METRICS_PORT = 9465;

async function main(): Promise<void> {
  const base = loadConfig();
  const logger = createLogger(base.LOG_LEVEL);
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const aborted = new AbortController();
  const starting = startStack({
    services: startLocalStack,
    env: {
      // Metrics on by default here, on loopback listeners apart from the dashboard's port (docs/metrics.md).
      METRICS_PORT: String(base.METRICS_PORT ?? DEFAULT_METRICS_PORT),
      WORKER_METRICS_PORT: String(base.WORKER_METRICS_PORT ?? DEFAULT_WORKER_METRICS_PORT),
      // A local stack: any Owner may read sealed Temporal payloads in the UI (docs/temporal-codec.md); production lists operator ids.
      TEMPORAL_CODEC_OPERATORS: base.TEMPORAL_CODEC_OPERATORS ?? (base.NODE_ENV === 'production' ? undefined : '*'),
    },
    schedules: true,
    log: say,
    signal: aborted.signal,
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`\n${signal}: stopping…`);
    aborted.abort();
    const stack = await starting.catch(() => undefined);
    await stack?.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const stack = await starting.catch((error: Error) => {
    if (stopping) return undefined;
    // The message alone, unescaped: it often says what to do (e.g. a DATA_DIR the postgres user cannot reach).
    process.stderr.write(`${error.message}\n`);
    logger.debug({ err: { stack: error.stack } }, 'start failed');
    process.exit(1);
  });
  if (!stack) return;
  const { api, config, services } = stack;
  if (stack.migrations.length > 0) say(`applied ${stack.migrations.length} migration(s)`);
  say('');
  say(`Dashboard    ${api.url}/   ← open this in a browser`);
  say(`API          ${api.url}   (health: ${api.url}/healthz, OpenAPI: ${api.url}/openapi.json)`);
  if (services.temporalUiUrl)
    say(`Temporal UI  ${services.temporalUiUrl}   (payloads sealed; an Owner reads them through ${api.url}/temporal-codec: docs/temporal-codec.md)`);
  say(`Temporal     ${services.temporalAddress}  task queue "${config.TEMPORAL_TASK_QUEUE}"`);
  say(`Metrics      ${api.metricsUrl ?? '(off)'}   (worker and Temporal SDK: http://${config.METRICS_HOST}:${config.WORKER_METRICS_PORT}/metrics)`);
  say('Press Ctrl-C to stop.');
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
});
