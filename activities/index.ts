import { ANALYTICS_ACTIVITIES, createAnalyticsActivities } from './analytics';
import { AUDIENCE_ACTIVITIES, createAudienceActivities } from './audiences';
import { AUTOMATION_ACTIVITIES, createAutomationActivities } from './automation';
import type { ActivityDeclarations } from './declarations';
import { createDiagnosticsActivities, DIAGNOSTICS_ACTIVITIES } from './diagnostics';
import { createIngestActivities, INGEST_ACTIVITIES } from './ingest';
import { createRetentionActivities, RETENTION_ACTIVITIES } from './retention';
import { createEmailActivities, EMAIL_ACTIVITIES } from './email';
import { createGatewayActivities, GATEWAY_ACTIVITIES } from './gateway';
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
    ...createAudienceActivities(deps),
    ...createAutomationActivities(deps),
  };
  return { ...activities, ...instrumentEnds(activities, { db: deps.db, metrics }) };
}

export type Activities = ReturnType<typeof createActivities>;

/**
 * What every activity of the worker declares beside its code (./declarations.ts), by name: an activity added to a
 * factory without its declaration does not compile, and the compiler names it.
 */
export const ACTIVITY_DECLARATIONS: ActivityDeclarations<typeof createActivities> = {
  ...DIAGNOSTICS_ACTIVITIES,
  ...INGEST_ACTIVITIES,
  ...RETENTION_ACTIVITIES,
  ...EMAIL_ACTIVITIES,
  ...GATEWAY_ACTIVITIES,
  ...ANALYTICS_ACTIVITIES,
  ...AUDIENCE_ACTIVITIES,
  ...AUTOMATION_ACTIVITIES,
};
