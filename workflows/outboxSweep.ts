import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { sweepOutboxEvents } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 3, initialInterval: '5 seconds' },
});

/**
 * The safety net of event-driven triggers (spec 6.2): every minute the `outbox-sweep` Schedule
 * dispatches whatever outbox events the workers' listeners missed.
 */
export async function outboxSweepWorkflow(): Promise<{ claimed: number; started: number }> {
  return sweepOutboxEvents();
}
