import { BACKLOG_EVENTS, CONTENDED_WINDOW_MS, IN_FLIGHT_HOLD_MS, RUNS_IN_FLIGHT_CONTENDED } from '../../worker/inFlight';
import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, type AutomationsClient } from '../helpers/automations';
import { waitForJob } from '../helpers/data';
import { eventually } from '../helpers/eventually';

/**
 * A run asleep in a recorded wait leaves its organisation's runs in flight (worker/inFlight.ts): an organisation with
 * a backlog beside another is held to RUNS_IN_FLIGHT_CONTENDED, and were each waiting run counted its whole
 * IN_FLIGHT_HOLD_MS, the first WAITING − BACKLOG_EVENTS runs would take that many ÷ cap × hold to begin (200 s);
 * parked, they begin at the pace of their starts.
 */
const WAITING = 60;
const BOUND_MS = 60_000;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

async function withPlayers(count: number): Promise<AutomationsClient> {
  const client = await automationsClient(app);
  const batch = await client.call('/batch/entities', {
    method: 'POST',
    body: Array.from({ length: count }, (_, index) => ({ entityType: 'player', externalId: `p-${index}`, data: {} })),
  });
  expect(batch.status).toBe(202);
  expect(await waitForJob(client, batch.body.data.jobId)).toMatchObject({ status: 'completed' });
  return client;
}

it(`${WAITING} runs waiting for an event begin within a minute beside another organisation's runs, none lost`, async () => {
  expect(((WAITING - BACKLOG_EVENTS) / RUNS_IN_FLIGHT_CONTENDED) * IN_FLIGHT_HOLD_MS).toBeGreaterThan(2 * BOUND_MS);
  const [waiter, bystander] = await Promise.all([withPlayers(WAITING), withPlayers(1)]);
  const waits = await waiter.create({
    name: 'Waits for KYC',
    nodes: [
      { id: 'start', type: 'trigger.event', params: { event: 'entity_event.bonus' } },
      { id: 'kyc', type: 'action.wait_for_event', params: { event: 'entity_event.kyc', timeoutSeconds: 3600 } },
    ],
    edges: [{ from: 'start', to: 'kyc' }],
  });
  await bystander.create({
    name: 'Bystander',
    nodes: [
      { id: 'start', type: 'trigger.event', params: { event: 'entity_event.transaction' } },
      { id: 'mark', type: 'action.set_state', params: { externalId: 'p-0', key: 'risk_score', value: 1 } },
    ],
    edges: [{ from: 'start', to: 'mark' }],
  });

  // The bystander keeps the dispatcher contended (a run started within CONTENDED_WINDOW_MS) the whole time.
  let trickling = true;
  const trickle = (async () => {
    while (trickling) {
      await bystander.call('/entities/p-0/events', { method: 'POST', body: { eventType: 'transaction', data: { type: 'bet', amount: 1, currency: 'EUR' } } });
      await new Promise((resolve) => setTimeout(resolve, CONTENDED_WINDOW_MS / 5));
    }
  })();
  try {
    await eventually(async () => {
      const started = await app.deps.db('automation_runs').where({ operator_id: bystander.operator.operatorId }).first('id');
      return started !== undefined;
    }, 30_000);
    const batch = await waiter.call('/batch/events', {
      method: 'POST',
      body: Array.from({ length: WAITING }, (_, index) => ({ externalId: `p-${index}`, eventType: 'bonus', data: { type: 'welcome', amount: 10 } })),
    });
    expect(batch.status).toBe(202);
    const waitCount = async () =>
      Number((await app.deps.db('automation_run_waits').where({ operator_id: waiter.operator.operatorId }).count<{ n: string }[]>({ n: '*' }))[0]!.n);
    await eventually(async () => (await waitCount()) === WAITING, BOUND_MS);
    const runs = await app.deps
      .db('automation_runs')
      .where({ operator_id: waiter.operator.operatorId, automation_id: waits.id })
      .select('temporal_workflow_id');
    expect(new Set(runs.map((run) => run.temporal_workflow_id)).size).toBe(WAITING);
    expect(runs).toHaveLength(WAITING);
  } finally {
    trickling = false;
    await trickle;
  }
}, 150_000);
