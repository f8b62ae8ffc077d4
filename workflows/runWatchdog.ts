import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { watchRuns } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 3, initialInterval: '5 seconds' },
});

/**
 * The run watchdog (started every minute by the `run-watchdog` Schedule): runs whose workflow cannot finish — a
 * workflow task that keeps failing, a workflow gone or closed without its record — are recorded `failed` and their
 * quota returned (`worker/runWatchdog.ts`).
 */
export async function runWatchdogWorkflow(): Promise<{ checked: number; closed: number }> {
  return watchRuns();
}
