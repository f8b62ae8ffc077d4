import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { RollupPassOutcome } from '../activities/analytics';

const { refreshAnalytics } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '10 seconds', maximumInterval: '2 minutes', maximumAttempts: 5 },
});

/** One catch-up pass of the analytics rollups (started every 30 seconds by the `analytics-refresh` Schedule). */
export async function analyticsRefreshWorkflow(): Promise<RollupPassOutcome> {
  return refreshAnalytics({});
}
