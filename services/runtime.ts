import http from 'node:http';
import type { Logger } from 'pino';
import { createApp } from '../api/app';
import { createCaches } from '../api/caches';
import type { AppDeps } from '../api/deps';
import { KeyUsageTracker } from '../api/keyUsageTracker';
import { createApiMetrics } from '../api/metrics/apiMetrics';
import { startMetricsServer } from '../api/metrics/server';
import { RateLimits } from '../api/rateLimits';
import type { Config } from '../core/config';
import { createDb, type Db } from '../db/knex';
import { connectTemporal, type TemporalClient } from '../temporal/client';
import { resolveJwtSecret, resolveKeyring } from './devSecrets';

export function databaseUrlOf(config: Config): string {
  return config.DATABASE_URL ?? `postgres://postgres:postgres@127.0.0.1:${config.EMBEDDED_PG_PORT}/operator_platform`;
}

export function temporalAddressOf(config: Config): string {
  return config.TEMPORAL_ADDRESS ?? `127.0.0.1:${config.TEMPORAL_PORT}`;
}

/**
 * Builds the API's dependencies: database pool, Temporal client (the in-process worker's when there is one,
 * so starts are eager), shared rate limits, key-usage buffer.
 */
export async function buildAppDeps(
  config: Config,
  logger: Logger,
  db: Db = createDb(databaseUrlOf(config), { poolMax: config.DATABASE_POOL_MAX }),
  temporalClient?: TemporalClient,
): Promise<AppDeps> {
  const keyring = resolveKeyring(config);
  const temporal = temporalClient ?? (await connectTemporal({ address: temporalAddressOf(config), namespace: config.TEMPORAL_NAMESPACE, taskQueue: config.TEMPORAL_TASK_QUEUE, keyring }));
  const keyUsage = new KeyUsageTracker(db, config.API_KEY_USAGE_FLUSH_MS, logger);
  keyUsage.start();
  const metrics = config.METRICS_PORT === undefined ? undefined : createApiMetrics(db, logger);
  return {
    config,
    db,
    temporal,
    logger,
    rateLimits: new RateLimits(db, config.rateLimitsPerMinute, metrics?.rateLimitRefused),
    keyUsage,
    caches: createCaches(db, config, logger),
    jwtSecret: resolveJwtSecret(config),
    keyring,
    ...(metrics ? { metrics } : {}),
  };
}

export interface RunningApi {
  url: string;
  /** The metrics listener's `/metrics` URL, when METRICS_PORT is set. */
  metricsUrl?: string;
  close(): Promise<void>;
}

/** Listens on HOST:PORT (port 0 picks a free one) and returns a `close` that drains and releases everything. */
export async function startApiServer(deps: AppDeps, options: { closeDb?: boolean } = {}): Promise<RunningApi> {
  const server = http.createServer(createApp(deps).callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(deps.config.PORT, deps.config.HOST, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : deps.config.PORT;
  const host = deps.config.HOST === '0.0.0.0' ? '127.0.0.1' : deps.config.HOST;
  const metrics = deps.metrics && deps.config.METRICS_PORT !== undefined
    ? await startMetricsServer(deps.metrics.registry, deps.config.METRICS_HOST, deps.config.METRICS_PORT)
    : undefined;
  return {
    url: `http://${host}:${port}`,
    ...(metrics ? { metricsUrl: metrics.url } : {}),
    close: async () => {
      await metrics?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await deps.keyUsage.stop();
      await deps.caches.feed.stop();
      await deps.temporal.close();
      if (options.closeDb !== false) await deps.db.destroy();
    },
  };
}
