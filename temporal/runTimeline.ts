import type { Client } from '@temporalio/client';
import { optionalTsToMs } from '@temporalio/common/lib/time';
import type { temporal as proto } from '@temporalio/proto';
import type { LiveRetry, RunTimeline } from '../core/automations/liveRun';
import type { automationRunWorkflow } from '../workflows/automationRun';
import { runTimelineQuery } from '../workflows/automation/timeline';

/**
 * How long a read of a run waits for its live workflow (the query and the describe, side by side) before it answers
 * with the stored record alone (`live.answered: false`): a dashboard polls every 2 s, so a slower answer is stale anyway.
 */
export const LIVE_READ_TIMEOUT_MS = 1_500;

/** A running run as its workflow reports it, with when it was asked. */
export interface LiveRun {
  timeline: RunTimeline;
  readAt: Date;
}

type PendingActivity = proto.api.workflow.v1.IPendingActivityInfo;

const CODE = /^[A-Z][A-Z0-9_]{0,63}$/;

/** The last failure's code, never its message (sealed by the failure converter anyway): an upper-snake `ApplicationFailure` type, `TIMEOUT` or `ERROR`. */
function failureCode(failure: proto.api.failure.v1.IFailure): string {
  const type = failure.applicationFailureInfo?.type;
  if (type && CODE.test(type)) return type;
  if (failure.timeoutFailureInfo) return 'TIMEOUT';
  return 'ERROR';
}

/**
 * The retry an activity of the step in flight waits in (Temporal's pending activity, a normal activity only: local
 * activities — data writes, gateway calls, the run's bookkeeping — retry inside the worker and are not listed).
 */
export function retryOf(pending: readonly PendingActivity[]): LiveRetry | undefined {
  const failed = pending.find((activity) => activity.lastFailure);
  if (!failed?.lastFailure) return undefined;
  const scheduled = failed.state === 1; // PENDING_ACTIVITY_STATE_SCHEDULED: in its backoff, not yet started again
  const next = scheduled ? optionalTsToMs(failed.nextAttemptScheduleTime ?? undefined) : undefined;
  return {
    attempt: failed.attempt ?? 1,
    nextAttemptAt: next === undefined ? null : new Date(next).toISOString(),
    lastErrorCode: failureCode(failed.lastFailure),
  };
}

/**
 * Asks a running run's workflow for its steps (query `runTimeline`) and Temporal for its pending activities, within
 * `timeoutMs`: the step in flight gets its retry, if one waits. Undefined when the workflow does not answer in time
 * (no worker, busy, closed meanwhile): the caller shows the stored record and says the live part is missing.
 *
 * @example await readLiveRun(temporal, 'automation-event-wf_…-evt_…') // { timeline: { steps: [...], total: 4 }, readAt }
 */
export async function readLiveRun(temporal: { client: Client }, temporalWorkflowId: string, timeoutMs = LIVE_READ_TIMEOUT_MS): Promise<LiveRun | undefined> {
  const handle = temporal.client.workflow.getHandle<typeof automationRunWorkflow>(temporalWorkflowId);
  const deadline = Date.now() + timeoutMs;
  const [timeline, described] = await Promise.all([
    temporal.client.withDeadline(deadline, () => handle.query(runTimelineQuery)).catch(() => undefined),
    temporal.client.withDeadline(deadline, () => handle.describe()).catch(() => undefined),
  ]);
  const readAt = new Date();
  if (!timeline || !Array.isArray(timeline.steps)) return undefined;
  const retry = retryOf(described?.raw.pendingActivities ?? []);
  const steps = timeline.steps.map((step) => {
    if (step.status !== 'running') return step;
    const durationMs = step.startedAt ? Math.max(0, readAt.getTime() - Date.parse(step.startedAt)) : step.durationMs;
    return { ...step, durationMs, ...(retry ? { retrying: retry } : {}) };
  });
  return { timeline: { steps, total: timeline.total }, readAt };
}
