import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { AudiencePassOutcome } from '../activities/audiences';

const { refreshAudiences } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '10 seconds', maximumInterval: '2 minutes', maximumAttempts: 5 },
});

/** One audience pass (started every 30 seconds by the `audience-refresh` Schedule). */
export async function audienceRefreshWorkflow(): Promise<AudiencePassOutcome> {
  return refreshAudiences({});
}
