import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Counter, Registry } from 'prom-client';
import type { RateLimitClass } from '../../core/config';
import type { Db } from '../../db/knex';
import { registerCollectedGauges } from './collectedGauges';
import { httpMetrics } from './httpMetrics';

/** The API process's metrics (docs/metrics.md); served on their own listener, never on the public port. */
export interface ApiMetrics {
  registry: Registry;
  /** Times and counts every request; the app mounts it outside the routers. */
  http: Middleware;
  rateLimitRefused(name: RateLimitClass): void;
  /** A run the API recorded as ended (api/waitedRuns.ts): one it refused as it began it, or one whose handed-back outcome it stored. */
  runFinished(source: string, status: string): void;
}

/** One registry per API instance (tests start several in one process): Node's process series, HTTP, limits, gauges. */
export function createApiMetrics(db: Db, logger: Logger): ApiMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const refusals = new Counter({
    name: 'platform_rate_limit_refusals_total',
    help: 'Requests refused with 429 RATE_LIMITED, by rate-limit class',
    labelNames: ['class'] as const,
    registers: [registry],
  });
  const runsFinished = new Counter({
    name: 'platform_automation_runs_finished_total',
    help: 'Automation runs that ended, by source and status',
    labelNames: ['source', 'status'] as const,
    registers: [registry],
  });
  registerCollectedGauges(registry, db, logger);
  return {
    registry,
    http: httpMetrics(registry),
    rateLimitRefused: (name) => refusals.inc({ class: name }),
    runFinished: (source, status) => runsFinished.inc({ source, status }),
  };
}
