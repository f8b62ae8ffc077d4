import type { Logger } from 'pino';
import { createCaches } from '../api/caches';
import type { AppDeps } from '../api/deps';
import { KeyUsageTracker } from '../api/keyUsageTracker';
import { createApiMetrics } from '../api/metrics/apiMetrics';
import { RateLimits } from '../api/rateLimits';
import type { Config } from '../core/config';
import { EventAppender } from '../db/ingest/eventAppender';
import { createDb, type Db } from '../db/knex';
import { postgresPayloadStore } from '../db/queries/temporalPayloads';
import { cachedSettings } from '../db/settingsPort';
import { syncAutomationSchedules } from '../temporal/automationSchedules';
import { connectTemporal, type TemporalClient } from '../temporal/client';
import { temporalConnectionOptions } from '../temporal/connectionOptions';
import { taskQueuesOf } from '../temporal/taskQueues';
import { databaseUrlOf, temporalAddressOf } from './addresses';
import { resolveJwtSecret, resolveKeyring } from './devSecrets';

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
  const temporal =
    temporalClient ??
    (await connectTemporal({
      ...temporalConnectionOptions(config, temporalAddressOf(config)),
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueues: taskQueuesOf(config),
      keyring,
      payloads: { store: postgresPayloadStore(db), maxBytes: config.TEMPORAL_PAYLOAD_MAX_BYTES },
    }));
  const keyUsage = new KeyUsageTracker(db, config.API_KEY_USAGE_FLUSH_MS, logger);
  keyUsage.start();
  const metrics = config.METRICS_PORT === undefined ? undefined : createApiMetrics(db, logger);
  const caches = createCaches(db, config, logger);
  return {
    config,
    db,
    temporal,
    logger,
    rateLimits: new RateLimits(db, config.rateLimits, metrics?.rateLimitRefused),
    keyUsage,
    caches,
    settings: cachedSettings(db, caches.settings),
    jwtSecret: resolveJwtSecret(config),
    keyring,
    events: new EventAppender(db),
    syncSchedules: (change) => syncAutomationSchedules(temporal, change),
    ...(metrics ? { metrics } : {}),
  };
}
