import { loadConfig } from '../../core/config';
import { laneWorkflowId } from '../../temporal/keyedRuns';
import { taskQueuesOf } from '../../temporal/taskQueues';
import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, chain, waitForRuns, type AutomationsClient } from '../helpers/automations';

/**
 * The waiting task queue (temporal/taskQueues.ts): lanes, and runs of an automation with a node that holds its run,
 * start there; every other run on the interactive queue. The shared worker polls both, so each run below finishes.
 */
let app: TestApp;
let acme: AutomationsClient;
const queues = taskQueuesOf(loadConfig());

beforeAll(async () => {
  app = await startTestApp();
  acme = await automationsClient(app);
  expect((await acme.call('/entities', { method: 'POST', body: { externalId: 'p-1', entityType: 'player', data: {} } })).status).toBe(201);
});
afterAll(() => app?.close());

const onEvent = { id: 'start', type: 'trigger.event', params: { event: 'entity_event.bonus' } };
const setState = { id: 'mark', type: 'action.set_state', params: { externalId: '{{ trigger.entity.externalId }}', key: 'risk_score', value: 1 } };
const delay = { id: 'wait', type: 'action.delay', params: { seconds: 1 } };

/** The task queue Temporal ran a workflow on. */
const queueOf = async (workflowId: string) => (await app.deps.temporal.client.workflow.getHandle(workflowId).describe()).taskQueue;

async function runQueues(automationId: string): Promise<string[]> {
  const runs = await waitForRuns(acme, automationId, 1);
  expect(runs.map((run) => [run.status, run.error ?? null])).toEqual([['completed', null]]);
  const rows = await app.deps
    .db('automation_runs')
    .where({ operator_id: acme.operator.operatorId, automation_id: automationId })
    .select('temporal_workflow_id');
  return Promise.all(rows.map((row) => queueOf(row.temporal_workflow_id)));
}

describe('the waiting task queue', () => {
  it('is a queue of its own', () => {
    expect(queues.waiting).toBe(`${queues.interactive}-waiting`);
    expect(queues.waiting).not.toBe(queues.background);
  });

  it('takes event runs of an automation that holds its runs, and leaves the others interactive', async () => {
    const holding = await acme.create(chain('Holds', [delay, setState], onEvent));
    const quick = await acme.create(chain('Quick', [setState], onEvent));
    expect((await acme.call('/entities/p-1/events', { method: 'POST', body: { eventType: 'bonus', data: { bonus_id: 'b-1' } } })).status).toBe(201);

    expect(await runQueues(holding.id)).toEqual([queues.waiting]);
    expect(await runQueues(quick.id)).toEqual([queues.interactive]);
  }, 60_000);

  it('takes a manual run that holds, begun and awaited by its caller', async () => {
    const holding = await acme.create(chain('Manual hold', [delay]));
    const started = await acme.wf(`/workflows/${holding.id}/test`, { method: 'POST', body: {} });
    expect(started.status).toBe(200);
    expect(started.body.data.status).toBe('completed');
    expect(await runQueues(holding.id)).toEqual([queues.waiting]);
  }, 60_000);

  it('takes the lanes of run control, and their runs with them', async () => {
    const controlled = await acme.create({ ...chain('Keyed', [setState], onEvent), run_control: { concurrency: { limit: 1, when_busy: 'queue' } } });
    expect((await acme.call('/entities/p-1/events', { method: 'POST', body: { eventType: 'bonus', data: { bonus_id: 'b-2' } } })).status).toBe(201);

    expect(await runQueues(controlled.id)).toEqual([queues.waiting]);
    const lane = laneWorkflowId({ operatorId: acme.operator.operatorId, automationId: controlled.id, key: 'p-1' });
    expect(await queueOf(lane)).toBe(queues.waiting);
  }, 60_000);
});
