import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { refreshAnalytics } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '10 seconds', maximumInterval: '2 minutes', maximumAttempts: 5 },
});

/** Refreshes the analytics aggregate views (started every 15 minutes by the `analytics-refresh` Schedule). */
export async function analyticsRefreshWorkflow(): Promise<{ refreshedAt: string }> {
  return refreshAnalytics({});
}
