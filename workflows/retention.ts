import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

type RetentionCounts = Awaited<ReturnType<Activities['applyRetention']>>;

const { applyRetention } = proxyActivities<Activities>({
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '10 seconds', maximumInterval: '5 minutes', maximumAttempts: 10 },
});

/**
 * Daily data retention (started by the `retention-daily` Schedule). `asOf` fixes the clock for a
 * replay or a test; otherwise the workflow's own (deterministic) time is used.
 */
export async function retentionWorkflow(input: { asOf?: string } = {}): Promise<RetentionCounts> {
  return applyRetention({ asOf: input.asOf ?? new Date().toISOString() });
}
