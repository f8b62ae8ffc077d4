import {
  CancellationScope,
  ChildWorkflowCancellationType,
  condition,
  continueAsNew,
  isCancellation,
  ParentClosePolicy,
  proxyLocalActivities,
  sleep,
  startChild,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Activities } from '../activities';
import type { ReplayRerun } from '../activities/automation/replays';
import type { RunReplayInput } from '../core/workflowContracts';
import { automationRunWorkflow } from './automationRun';

const { replayPage, recordReplayProgress } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 20, initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

/** Original runs read per page; the job continues as new after each full page, so its history stays a few thousand events. */
export const REPLAY_PAGE_SIZE = 200;
/** While reruns are still going, progress is written this often at first, then less often (doubling) up to once a minute. */
const DRAIN_POLL = { firstMs: 1000, maxMs: 60_000 };

/**
 * The Temporal workflow id of the rerun a replay starts for one original run: derived from both, so however often the
 * job is retried, continued or started again, it starts each rerun at most once (Temporal refuses a second start of the
 * id, and `automation_runs.temporal_workflow_id` is unique).
 */
export const replayRerunWorkflowId = (replayId: string, runId: string) => `automation-replay-${replayId}-${runId}`;

export interface RunReplayResult {
  status: 'completed' | 'cancelled' | 'failed';
  started: number;
}

/**
 * One bulk replay job (`run_replays`, docs/workflows.md "Rerun and replay"): pages the automation's failed runs of the
 * job's range oldest first (keyset paging through `replayPage`), and starts a rerun of each from its failed step as a
 * child workflow that outlives the job (`ParentClosePolicy.ABANDON`), at most `ratePerSecond` a second (a timer per
 * second). Progress goes to the job's row as it goes: `started` by the job, `succeeded` and `failed` counted from the
 * reruns' own rows. After a full page it waits for that page's reruns and continues as new; after the last one it waits
 * for every rerun to record its end, then completes. Cancelling it starts no further rerun.
 */
export async function runReplayWorkflow(input: RunReplayInput): Promise<RunReplayResult> {
  const { operatorId, replayId } = input;
  let started = input.started ?? 0;
  let unrecorded = input.unrecorded ?? 0;
  let after = input.after ?? null;
  const pending = new Set<string>();
  const progress = (finish?: RunReplayResult['status']) => recordReplayProgress({ operatorId, replayId, started, unrecorded, ...(finish ? { finish } : {}) });

  const startRerun = async (automationId: string, rerun: ReplayRerun): Promise<void> => {
    const { runId, fromNodeId, triggerNodeId, source, pinnedVersion } = rerun;
    try {
      const child = await startChild(automationRunWorkflow, {
        workflowId: replayRerunWorkflowId(replayId, runId),
        taskQueue: input.runTaskQueue,
        parentClosePolicy: ParentClosePolicy.ABANDON,
        cancellationType: ChildWorkflowCancellationType.ABANDON,
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        args: [
          {
            operatorId,
            automationId,
            source: source as Parameters<typeof automationRunWorkflow>[0]['source'],
            input: null,
            ...(triggerNodeId ? { triggerNodeId } : {}),
            ...(pinnedVersion === undefined ? {} : { pinnedVersion }),
            rerun: { runId, fromNodeId, replayId },
          },
        ],
      });
      pending.add(runId);
      void child.result().then(
        (result) => {
          if (result.kind === 'ignored') unrecorded += 1;
          pending.delete(runId);
        },
        () => pending.delete(runId),
      );
    } catch (error) {
      // Started by an earlier run of this job: its run row counts it.
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  };

  const drain = async () => {
    for (let waitMs = DRAIN_POLL.firstMs; pending.size > 0; waitMs = Math.min(waitMs * 2, DRAIN_POLL.maxMs)) {
      await condition(() => pending.size === 0, waitMs);
      await progress();
    }
  };

  try {
    for (;;) {
      const page = await replayPage({ operatorId, replayId, after, limit: REPLAY_PAGE_SIZE });
      if (page.kind === 'stop') {
        await drain();
        const status = page.status === 'gone' || page.status === 'running' ? 'failed' : page.status;
        await progress(status);
        return { status, started };
      }
      for (let i = 0; i < page.reruns.length; i += page.ratePerSecond) {
        await Promise.all(page.reruns.slice(i, i + page.ratePerSecond).map((rerun) => startRerun(page.automationId, rerun)));
        started += Math.min(page.ratePerSecond, page.reruns.length - i);
        await progress();
        await sleep(1000);
      }
      after = page.last ?? after;
      await drain();
      if (!page.full) break;
      return await continueAsNew<typeof runReplayWorkflow>({ ...input, after, started, unrecorded });
    }
    await progress('completed');
    return { status: 'completed', started };
  } catch (error) {
    if (!isCancellation(error)) throw error;
    await CancellationScope.nonCancellable(() => progress('cancelled'));
    throw error;
  }
}
