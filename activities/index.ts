import { createAnalyticsActivities } from './analytics';
import { createAutomationActivities } from './automation';
import { createDiagnosticsActivities } from './diagnostics';
import { createIngestActivities } from './ingest';
import { createRetentionActivities } from './retention';
import { createEmailActivities } from './email';
import { createGatewayActivities } from './gateway';
import type { ActivityDeps } from './deps';
import { instrumentEnds } from './instrumented';
import { noActivityMetrics } from './metrics';

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
