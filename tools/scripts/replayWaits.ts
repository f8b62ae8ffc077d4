import { post } from '../stack/stackClient';
import { startAutomationRun } from '../../temporal/automationRuns';
import type { Recorder } from './replayRecorder';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs of an `action.wait_for_event` (workflows/automation/waitForEvent.ts), each recorded once it has finished: one
 * that took a deposit after a withdrawal its filter refused (a signal the run let pass, then one it took), and one
 * whose wait timed out along its `when: false` edge.
 */
export async function recordWaitingRuns(recorder: Recorder): Promise<void> {
  const { url, operator, deps } = recorder;
  const key = operator.apiKey;
  await post(url, '/operator-data-api/entities', { externalId: 'p-wait', entityType: 'player', data: {} }, key);
  const automation = async (name: string, timeoutSeconds: number) =>
    (
      await post(
        url,
        '/workflows-api/workflows',
        {
          name,
          nodes: [
            { id: 'start', type: 'trigger.manual', params: {} },
            {
              id: 'deposit',
              type: 'action.wait_for_event',
              params: { event: 'entity_event.transaction', filter: 'event.data.type = "deposit"', timeoutSeconds },
            },
            { id: 'thanks', type: 'action.set_state', params: { externalId: '{{ trigger.entity.externalId }}', key: 'loyalty_tier', value: 'silver' } },
            { id: 'nudge', type: 'action.delay', params: { seconds: 1 } },
          ],
          edges: [
            { from: 'start', to: 'deposit' },
            { from: 'deposit', to: 'thanks', when: true },
            { from: 'deposit', to: 'nudge', when: false },
          ],
        },
        key,
      )
    ).data.id as string;
  const start = async (automationId: string) => {
    const { runId, handle } = await startAutomationRun(deps.temporal, {
      operatorId: operator.operatorId,
      automationId,
      source: 'manual',
      input: { entity: { externalId: 'p-wait' } },
    });
    const deadline = Date.now() + 30_000;
    while (!(await deps.db('automation_run_waits').where({ operator_id: operator.operatorId, run_id: runId }).first('run_id'))) {
      if (Date.now() > deadline) throw new Error('the run never waited');
      await sleep(100);
    }
    return handle;
  };
  const transaction = (type: string) =>
    post(url, '/operator-data-api/entities/p-wait/events', { eventType: 'transaction', data: { type, amount: 500, currency: 'EUR' } }, key);

  const deposited = await start(await automation('Replay: wait for a deposit', 600));
  await transaction('withdrawal');
  await sleep(1000);
  await transaction('deposit');
  await deposited.result();
  await recorder.save('automation-run-waited-event', deposited.workflowId);

  const quiet = await start(await automation('Replay: wait times out', 2));
  await quiet.result();
  await recorder.save('automation-run-waited-timeout', quiet.workflowId);
}
