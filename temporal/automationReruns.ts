import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { prefixedId } from '../core/ids';
import type { AutomationRunInput } from '../core/workflowContracts';
import { automationRunV2Workflow } from '../workflows/automationRun';
import { runReplayWorkflow } from '../workflows/runReplay';

interface Starter {
  client: Client;
  taskQueue: string;
  backgroundTaskQueue: string;
}

/** What a rerun is started with: never a trigger payload, which the begin activity reads from the original run. */
export type StartRerunInput = Omit<AutomationRunInput, 'runId' | 'input' | 'rerun'> & { rerun: { runId: string; fromNodeId: string } };

/**
 * Starts a rerun (`POST /runs/:runId/rerun`) without waiting and returns its pre-assigned run id: a new run, on the
 * interactive queue like every run, that records itself as a rerun of `rerun.runId` (workflows/automationRun.ts).
 *
 * @example const { runId } = await startRerun(temporal, { operatorId, automationId, source: 'manual', triggerNodeId: 'start', rerun: { runId: 'run_…', fromNodeId: 'notify' } })
 */
export async function startRerun(
  temporal: Pick<Starter, 'client' | 'taskQueue'>,
  input: StartRerunInput,
  runId = prefixedId('run'),
): Promise<{ runId: string }> {
  await temporal.client.workflow.start(automationRunV2Workflow, {
    taskQueue: temporal.taskQueue,
    workflowId: `automation-rerun-${runId}`,
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    args: [{ ...input, input: null, runId }],
  });
  return { runId };
}

/**
 * Starts a stored replay job's workflow on the background queue (never eager); its workflow id is the replay id, so a
 * second start while it runs is `already_running` and changes nothing. A start after it closed runs it again, which
 * adds no rerun: each rerun's workflow id is derived from the replay and the original run (workflows/runReplay.ts).
 *
 * @example await startRunReplay(temporal, { operatorId, replayId: 'rpl_…' }) // 'started'
 */
export async function startRunReplay(temporal: Starter, input: { operatorId: string; replayId: string }): Promise<'started' | 'already_running'> {
  try {
    await temporal.client.workflow.start(runReplayWorkflow, {
      taskQueue: temporal.backgroundTaskQueue,
      workflowId: input.replayId,
      args: [{ ...input, runTaskQueue: temporal.taskQueue }],
    });
    return 'started';
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return 'already_running';
    throw error;
  }
}

/** Cancels a replay job's workflow: it starts no further rerun; reruns already started run to their end. */
export async function cancelRunReplay(temporal: Pick<Starter, 'client'>, replayId: string): Promise<'requested' | 'not_running'> {
  try {
    await temporal.client.workflow.getHandle<typeof runReplayWorkflow>(replayId).cancel();
    return 'requested';
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return 'not_running';
    throw error;
  }
}
