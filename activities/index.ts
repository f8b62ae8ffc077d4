import type { Logger } from 'pino';
import type { Config } from '../core/config';
import type { Keyring } from '../core/crypto';
import type { Db } from '../db/knex';
import type { ExpressionEvaluator } from '../sandbox/tasks';
import { createAnalyticsActivities } from './analytics';
import { createAutomationActivities } from './automation';
import { createDiagnosticsActivities } from './diagnostics';
import { createIngestActivities } from './ingest';
import { createRetentionActivities } from './retention';
import { createEmailActivities } from './email';
import { createGatewayActivities } from './gateway';
import { instrumentEnds } from './instrumented';
import { noActivityMetrics, type ActivityMetrics } from './metrics';
import type { PayloadBudget } from './payloadBudget';

export interface ActivityDeps {
  db: Db;
  config: Config;
  logger: Logger;
  keyring: Keyring;
  /**
   * The outbox dispatch pass (`worker/outboxDispatch.ts`), which the `outbox-sweep` activity runs: the worker
   * provides it, since the pass starts runs through `temporal/` and is the worker's own LISTEN loop's too.
   */
  dispatchOutbox?: () => Promise<{ claimed: number; started: number }>;
  /** The run watchdog's pass (`worker/runWatchdog.ts`), which the `run-watchdog` activity runs: it asks Temporal, so the worker provides it. */
  reconcileRuns?: () => Promise<{ checked: number; closed: number }>;
  /** Where run conditions and templates are evaluated (`sandbox/`); the worker always gives it. */
  sandbox?: ExpressionEvaluator;
  /** How much large data each operator may bring in (`activities/payloadBudget.ts`); unlimited when absent. */
  payloadBudget?: PayloadBudget;
  /** The worker's metrics (docs/metrics.md); none when absent. */
  metrics?: ActivityMetrics;
}

/**
 * Builds every activity with its dependencies. Activities are plain async functions taking one typed
 * input object; business failures throw `ApplicationFailure.create({ nonRetryable: true })`.
 */
export function createActivities(deps: ActivityDeps) {
  const metrics = deps.metrics ?? noActivityMetrics;
  const activities = {
    ...createDiagnosticsActivities(deps),
    ...createIngestActivities(deps),
    ...createRetentionActivities(deps),
    ...createEmailActivities(deps),
    ...createGatewayActivities({ ...deps, metrics }),
    ...createAnalyticsActivities(deps),
    ...createAutomationActivities(deps),
  };
  return { ...activities, ...instrumentEnds(activities, { db: deps.db, metrics }) };
}

export type Activities = ReturnType<typeof createActivities>;
