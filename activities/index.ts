import type { Logger } from 'pino';
import type { Config } from '../core/config';
import type { Keyring } from '../core/crypto';
import type { Db } from '../db/knex';
import { createAnalyticsActivities } from './analytics';
import { createAutomationActivities } from './automation';
import type { StartEventRun } from './automation/dispatch';
import { createDiagnosticsActivities } from './diagnostics';
import { createIngestActivities } from './ingest';
import { createRetentionActivities } from './retention';
import { createEmailActivities } from './email';
import { createGatewayActivities } from './gateway';

export interface ActivityDeps {
  db: Db;
  config: Config;
  logger: Logger;
  keyring: Keyring;
  /** Lets the outbox sweep start event runs through `temporal/`; the worker provides it. */
  startEventRun?: StartEventRun;
}

/**
 * Builds every activity with its dependencies. Activities are plain async functions taking one typed
 * input object; business failures throw `ApplicationFailure.create({ nonRetryable: true })`.
 */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createDiagnosticsActivities(deps),
    ...createIngestActivities(deps),
    ...createRetentionActivities(deps),
    ...createEmailActivities(deps),
    ...createGatewayActivities(deps),
    ...createAnalyticsActivities(deps),
    ...createAutomationActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
