import { post } from '../stack/stackClient';
import { laneWorkflowId } from '../../temporal/keyedRuns';
import type { Recorder } from './replayRecorder';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Two run-control lanes (workflows/automationLane.ts) of player p-1, each recorded once it has closed: one queueing
 * three triggers into runs one after another; one that debounces, skips a busy key, has its run cancelled by a
 * `cancel_on` event (the `cancelLaneRuns` Update) and waits out its throttle window.
 */
export async function recordRunControlLanes(recorder: Recorder): Promise<void> {
  const { url, operator, deps } = recorder;
  const key = operator.apiKey;
  const event = (eventType: string) => post(url, '/operator-data-api/entities/p-1/events', { eventType, data: {} }, key);
  const automation = async (name: string, trigger: string, seconds: number, runControl: unknown) =>
    (
      await post(
        url,
        '/workflows-api/workflows',
        {
          name,
          nodes: [
            { id: 'start', type: 'trigger.event', params: { event: trigger } },
            { id: 'wait', type: 'action.delay', params: { seconds } },
          ],
          edges: [{ from: 'start', to: 'wait' }],
          run_control: runControl,
        },
        key,
      )
    ).data.id as string;
  const closed = async (workflowId: string) => {
    const deadline = Date.now() + 60_000;
    while ((await deps.temporal.client.workflow.getHandle(workflowId).describe()).status.name === 'RUNNING') {
      if (Date.now() > deadline) throw new Error(`lane ${workflowId} did not close`);
      await sleep(200);
    }
  };
  const running = async (automationId: string) => {
    const deadline = Date.now() + 30_000;
    while (!(await deps.db('automation_runs').where({ operator_id: operator.operatorId, automation_id: automationId, status: 'running' }).first('id'))) {
      if (Date.now() > deadline) throw new Error('the lane never started its run');
      await sleep(100);
    }
  };

  const queued = await automation('Replay: queued lane', 'entity_event.session', 1, { concurrency: { limit: 1, when_busy: 'queue' } });
  for (let n = 0; n < 3; n += 1) await event('session');
  const queuedLane = laneWorkflowId({ operatorId: operator.operatorId, automationId: queued, key: 'p-1' });
  await sleep(500);
  await closed(queuedLane);
  await recorder.save('automation-lane-queued', queuedLane);

  const guarded = await automation('Replay: guarded lane', 'entity_event.bonus', 600, {
    concurrency: { limit: 1, when_busy: 'skip' },
    throttle: { limit: 5, period_seconds: 3 },
    debounce: { quiet_seconds: 1 },
    cancel_on: ['entity_event.support'],
  });
  await event('bonus');
  await event('bonus');
  await running(guarded);
  await event('bonus');
  await sleep(1500);
  await event('support');
  const guardedLane = laneWorkflowId({ operatorId: operator.operatorId, automationId: guarded, key: 'p-1' });
  await closed(guardedLane);
  await recorder.save('automation-lane-guarded', guardedLane);
}
