import type { Logger } from 'pino';
import type { CommandDeps, ScheduleSync } from '../commands/deps';
import type { Config } from '../core/config';
import type { Keyring } from '../core/crypto';
import type { Db } from '../db/knex';
import type { TemporalClient } from '../temporal/client';
import type { AppCaches } from './caches';
import type { KeyUsageTracker } from './keyUsageTracker';
import type { ApiMetrics } from './metrics/apiMetrics';
import type { RateLimits } from './rateLimits';

/** Everything a route needs, built once per process and passed down explicitly. */
export interface AppDeps extends CommandDeps {
  config: Config;
  db: Db;
  /** The way into Temporal: every start, update and query goes through a starter of `temporal/`. */
  temporal: TemporalClient;
  logger: Logger;
  rateLimits: RateLimits;
  keyUsage: KeyUsageTracker;
  /** API keys, members and operator settings in memory, invalidated by database notifications. */
  caches: AppCaches;
  /** The secret that signs session JWTs (from JWT_SECRET, or the generated dev secret). */
  jwtSecret: string;
  /** AES-256-GCM keyring for PII and credentials. */
  keyring: Keyring;
  /** The automations' Temporal Schedules, kept in step by the automation commands (temporal/automationSchedules.ts). */
  syncSchedules: ScheduleSync;
  /** Present when METRICS_PORT is set: the registry the metrics listener serves. */
  metrics?: ApiMetrics;
}
