import { randomUUID } from 'node:crypto';
import { runAudiencePass } from '../../db/queries/audiencePass';
import { analytics } from '../helpers/analytics';
import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, waitForRuns, type AutomationsClient } from '../helpers/automations';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';

/**
 * An automation on `audience.entered` (issue 45, docs/analytics.md "Audiences and automations"): the event trigger with
 * the audience's id as its filter, through the real outbox dispatcher and Temporal. One run per player who enters, none
 * while they stay, a new one after they leave and enter again; another audience's entries start nothing.
 */
const queue = `audience-automation-${randomUUID()}`;
let worker: WorkerProcess;
let app: TestApp;
let acme: AutomationsClient;

async function pass() {
  for (;;) if ((await runAudiencePass(app.deps.db)).complete) return;
}
async function audience(name: string, value: string): Promise<string> {
  const definition = { all: [{ field: 'state', key: 'loyalty_tier', op: 'eq', value }] };
  const response = await analytics(app, acme.key, '/audiences', { method: 'POST', body: { name, definition } });
  expect(response.status).toBe(201);
  return response.body.data.id;
}
const tier = async (externalId: string, value: string) =>
  expect((await acme.call(`/entities/${externalId}/state/loyalty_tier`, { method: 'PUT', body: { value } })).status).toBe(200);
/** Waits until the dispatcher has handled every audience event of the operator: nothing more can start a run. */
async function dispatched() {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const [row] = await app.deps
      .db('outbox_events')
      .where({ operator_id: acme.operator.operatorId })
      .where('event', 'like', 'audience.%')
      .whereNull('dispatched_at')
      .count<Array<{ count: string }>>({ count: '*' });
    if (Number(row?.count) === 0) return;
    if (Date.now() > deadline) throw new Error(`${row?.count} audience events still pending`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
async function runPlayers(workflowId: string, count: number): Promise<string[]> {
  const runs = await waitForRuns(acme, workflowId, count);
  return runs.map((run) => run.input.data.externalId as string).sort();
}

beforeAll(async () => {
  worker = await spawnWorker({ TEMPORAL_TASK_QUEUE: queue });
  app = await startTestApp({ TEMPORAL_TASK_QUEUE: queue });
  acme = await automationsClient(app);
  for (const externalId of ['v1', 'v2', 'g1'])
    expect((await acme.call('/entities', { body: { entityType: 'player', externalId, data: {} } })).status).toBe(201);
}, 60_000);
afterAll(async () => {
  await app?.close();
  await worker?.stop();
});

it('runs once per player who enters, not again while they stay, and again after they leave and re-enter', async () => {
  const vip = await audience('VIP', 'vip');
  const gold = await audience('Gold', 'gold');
  await pass();
  const automation = await acme.create({
    name: 'Welcome to VIP',
    nodes: [
      { id: 'entered', type: 'trigger.event', params: { event: 'audience.entered', filter: `trigger.data.audienceId = "${vip}"` } },
      { id: 'note', type: 'action.note', params: { text: 'welcome' } },
    ],
    edges: [{ from: 'entered', to: 'note' }],
    run_control: { concurrency: { limit: 1, when_busy: 'queue' } },
  });

  await tier('v1', 'vip');
  await tier('v2', 'vip');
  await tier('g1', 'gold');
  await pass();
  await pass();
  await dispatched();
  expect(await runPlayers(automation.id, 2)).toEqual(['v1', 'v2']);

  // v1 stays: its state is written again and the pass re-judges it, but it is already a member.
  await tier('v1', 'vip');
  await pass();
  await dispatched();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(await runPlayers(automation.id, 2)).toEqual(['v1', 'v2']);

  await tier('v1', 'gold');
  await pass();
  await tier('v1', 'vip');
  await pass();
  await dispatched();
  expect(await runPlayers(automation.id, 3)).toEqual(['v1', 'v1', 'v2']);
  const events = await app.deps.db('outbox_events').where({ operator_id: acme.operator.operatorId }).where('event', 'like', 'audience.%').orderBy('seq');
  const history = (audienceId: string, externalId: string) =>
    events.filter((row) => row.payload.data.audienceId === audienceId && row.payload.data.externalId === externalId).map((row) => row.event);
  expect(history(vip, 'v1')).toEqual(['audience.entered', 'audience.exited', 'audience.entered']);
  expect(history(vip, 'v2')).toEqual(['audience.entered']);
  expect(history(gold, 'v1')).toEqual(['audience.entered', 'audience.exited']);
  expect(history(gold, 'g1')).toEqual(['audience.entered']);
  expect(events.every((row) => row.payload.entity.externalId === row.payload.data.externalId)).toBe(true);
}, 90_000);
