import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client, type ScheduleOptions } from '@temporalio/client';
import { analyticsRefreshWorkflow } from '../workflows/analyticsRefresh';
import { audienceRefreshWorkflow } from '../workflows/audienceRefresh';
import { outboxSweepWorkflow } from '../workflows/outboxSweep';
import { retentionWorkflow } from '../workflows/retention';
import { runWatchdogWorkflow } from '../workflows/runWatchdog';

export const RETENTION_SCHEDULE_ID = 'retention-daily';
export const ANALYTICS_REFRESH_SCHEDULE_ID = 'analytics-refresh';
export const OUTBOX_SWEEP_SCHEDULE_ID = 'outbox-sweep';
export const AUDIENCE_REFRESH_SCHEDULE_ID = 'audience-refresh';
export const RUN_WATCHDOG_SCHEDULE_ID = 'run-watchdog';
/** Every Schedule `ensurePlatformSchedules` keeps. */
export const PLATFORM_SCHEDULE_IDS = [
  RETENTION_SCHEDULE_ID,
  ANALYTICS_REFRESH_SCHEDULE_ID,
  AUDIENCE_REFRESH_SCHEDULE_ID,
  OUTBOX_SWEEP_SCHEDULE_ID,
  RUN_WATCHDOG_SCHEDULE_ID,
];
/** How often the analytics rollups catch up (docs/analytics.md "Rollups"): figures are at most about this far behind ingest, plus one pass. */
export const ANALYTICS_ROLLUP_EVERY_MS = 30_000;
/** How often audiences are re-judged (docs/analytics.md "Audiences"): an entering player's event follows their data within about this, plus a pass. */
export const AUDIENCE_PASS_EVERY_MS = 30_000;

/**
 * Creates a Schedule, or moves an existing one to the queue its workflow now belongs on (Schedules created before the
 * background queue start on the interactive one); nothing else of an existing Schedule changes.
 */
async function createUnlessExists(client: Client, options: ScheduleOptions): Promise<void> {
  try {
    await client.schedule.create(options);
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    const handle = client.schedule.getHandle(options.scheduleId);
    const { action } = await handle.describe();
    if (action.type !== 'startWorkflow' || action.taskQueue === options.action.taskQueue) return;
    await handle.update((previous) => ({ ...previous, action: { ...previous.action, taskQueue: options.action.taskQueue } }));
  }
}

/**
 * Moves the analytics Schedule of an older release (a view refresh every 15 minutes) to the rollups' interval; a
 * Schedule already on it is left alone.
 */
async function keepAnalyticsInterval(client: Client): Promise<void> {
  const handle = client.schedule.getHandle(ANALYTICS_REFRESH_SCHEDULE_ID);
  const { spec } = await handle.describe();
  if (spec.intervals?.length === 1 && Number(spec.intervals[0]?.every) === ANALYTICS_ROLLUP_EVERY_MS) return;
  await handle.update((previous) => ({ ...previous, spec: { intervals: [{ every: ANALYTICS_ROLLUP_EVERY_MS }] } }));
}

/**
 * Creates the platform's own Temporal Schedules if they do not exist yet (safe to call from every
 * API instance at start): the daily retention run at 03:00 UTC, the analytics rollups' catch-up and the audience pass every 30 seconds,
 * the outbox sweep of event-driven triggers and the run watchdog every minute, all on the background queue.
 */
export async function ensurePlatformSchedules(temporal: { client: Client; backgroundTaskQueue: string }): Promise<void> {
  const { client, backgroundTaskQueue: taskQueue } = temporal;
  await createUnlessExists(client, {
    scheduleId: ANALYTICS_REFRESH_SCHEDULE_ID,
    spec: { intervals: [{ every: ANALYTICS_ROLLUP_EVERY_MS }] },
    action: { type: 'startWorkflow', workflowType: analyticsRefreshWorkflow, args: [], taskQueue, workflowId: 'analytics-refresh' },
    policies: { overlap: ScheduleOverlapPolicy.SKIP },
  });
  await keepAnalyticsInterval(client);
  await createUnlessExists(client, {
    scheduleId: AUDIENCE_REFRESH_SCHEDULE_ID,
    spec: { intervals: [{ every: AUDIENCE_PASS_EVERY_MS }] },
    action: { type: 'startWorkflow', workflowType: audienceRefreshWorkflow, args: [], taskQueue, workflowId: 'audience-refresh' },
    policies: { overlap: ScheduleOverlapPolicy.SKIP },
  });
  await createUnlessExists(client, {
    scheduleId: OUTBOX_SWEEP_SCHEDULE_ID,
    spec: { intervals: [{ every: '1 minute' }] },
    action: { type: 'startWorkflow', workflowType: outboxSweepWorkflow, args: [], taskQueue, workflowId: 'outbox-sweep' },
    policies: { overlap: ScheduleOverlapPolicy.SKIP },
  });
  await createUnlessExists(client, {
    scheduleId: RUN_WATCHDOG_SCHEDULE_ID,
    spec: { intervals: [{ every: '1 minute' }] },
    action: { type: 'startWorkflow', workflowType: runWatchdogWorkflow, args: [], taskQueue, workflowId: 'run-watchdog' },
    policies: { overlap: ScheduleOverlapPolicy.SKIP },
  });
  await createUnlessExists(client, {
    scheduleId: RETENTION_SCHEDULE_ID,
    spec: { cronExpressions: ['0 3 * * *'], timezone: 'UTC' },
    action: { type: 'startWorkflow', workflowType: retentionWorkflow, args: [{}], taskQueue, workflowId: 'retention' },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 day' },
  });
}
