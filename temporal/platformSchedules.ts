import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { Config } from '../core/config';

export const RETENTION_SCHEDULE_ID = 'retention-daily';
export const ANALYTICS_REFRESH_SCHEDULE_ID = 'analytics-refresh';
export const OUTBOX_SWEEP_SCHEDULE_ID = 'outbox-sweep';

/**
 * Creates the platform's own Temporal Schedules if they do not exist yet (safe to call from every
 * API instance at start): the daily retention run at 03:00 UTC, the analytics view refresh every 15 minutes and
 * the outbox sweep of event-driven triggers every minute.
 */
export async function ensurePlatformSchedules(client: Client, config: Config): Promise<void> {
  try {
    await client.schedule.create({
      scheduleId: ANALYTICS_REFRESH_SCHEDULE_ID,
      spec: { intervals: [{ every: '15 minutes' }] },
      action: { type: 'startWorkflow', workflowType: 'analyticsRefreshWorkflow', args: [], taskQueue: config.TEMPORAL_TASK_QUEUE, workflowId: 'analytics-refresh' },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
  try {
    await client.schedule.create({
      scheduleId: OUTBOX_SWEEP_SCHEDULE_ID,
      spec: { intervals: [{ every: '1 minute' }] },
      action: { type: 'startWorkflow', workflowType: 'outboxSweepWorkflow', args: [], taskQueue: config.TEMPORAL_TASK_QUEUE, workflowId: 'outbox-sweep' },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
  try {
    await client.schedule.create({
      scheduleId: RETENTION_SCHEDULE_ID,
      spec: { cronExpressions: ['0 3 * * *'], timezone: 'UTC' },
      action: { type: 'startWorkflow', workflowType: 'retentionWorkflow', args: [{}], taskQueue: config.TEMPORAL_TASK_QUEUE, workflowId: 'retention' },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 day' },
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
}
