import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { backtestWorkflow } from '../workflows/backtest';

/**
 * Starts a stored backtest's job on the background queue; its workflow id is the backtest id, so a second start while
 * it runs is `already_running`. A start after it closed resumes from the row's cursor and counts nothing twice.
 */
export async function startBacktest(temporal: { client: Client; backgroundTaskQueue: string }, input: { operatorId: string; backtestId: string }) {
  try {
    await temporal.client.workflow.start(backtestWorkflow, { taskQueue: temporal.backgroundTaskQueue, workflowId: input.backtestId, args: [input] });
    return 'started' as const;
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return 'already_running' as const;
    throw error;
  }
}

/** Cancels a backtest's job: it replays no further page. */
export async function cancelBacktest(temporal: { client: Client }, backtestId: string) {
  try {
    await temporal.client.workflow.getHandle<typeof backtestWorkflow>(backtestId).cancel();
    return 'requested' as const;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return 'not_running' as const;
    throw error;
  }
}
