import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { waitEventSignal, type WaitEventSignal } from '../workflows/automation/waitForEvent';

/**
 * Tells a run waiting in an `action.wait_for_event` that an event it may take was dispatched. The run reads and
 * checks the event itself, so a stale or repeated signal changes nothing; `not_running` when the run has ended.
 *
 * @example await signalWaitingRun(temporal, 'automation-event-wf_…-evt_…', { nodeId: 'deposit', eventId: 'evt_…', seq: '42' })
 */
export async function signalWaitingRun(
  temporal: { client: Client },
  temporalWorkflowId: string,
  signal: WaitEventSignal,
): Promise<'signalled' | 'not_running'> {
  try {
    await temporal.client.workflow.getHandle(temporalWorkflowId).signal(waitEventSignal, signal);
    return 'signalled';
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return 'not_running';
    throw error;
  }
}
