import { RUNS_IN_FLIGHT_PER_OPERATOR } from '../../worker/inFlight';
import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, type AutomationsClient } from '../helpers/automations';
import { waitForJob } from '../helpers/data';
import { eventually } from '../helpers/eventually';

/**
 * The cap on runs in flight per organisation (docs/workflows.md "How events reach automations"), through the shared
 * worker's dispatcher with its shipped cap: a tenant past it loses nothing, never has more than the cap running, and
 * a bystander tenant's event is dispatched while the tenant's backlog still waits.
 */
const BURST = RUNS_IN_FLIGHT_PER_OPERATOR * 2;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

async function withPlayer(): Promise<AutomationsClient> {
  const client = await automationsClient(app);
  const player = await client.call('/entities', { method: 'POST', body: { externalId: 'p-1', entityType: 'player', data: { country: 'MT' } } });
  expect(player.status).toBe(201);
  return client;
}

/** An automation on transactions whose run waits a second: each run stays in flight about that long. */
const onTransactions = (client: AutomationsClient) =>
  client.create({
    name: 'A second per deposit',
    nodes: [
      { id: 'start', type: 'trigger.event', params: { event: 'entity_event.transaction' } },
      { id: 'wait', type: 'action.delay', params: { seconds: 1 } },
    ],
    edges: [{ from: 'start', to: 'wait' }],
  });

interface RunRow {
  temporal_workflow_id: string;
  status: string;
  started_at: Date;
  completed_at: Date | null;
}

const runsOf = (operatorId: string, workflowId: string): Promise<RunRow[]> =>
  app.deps
    .db('automation_runs')
    .where({ operator_id: operatorId, automation_id: workflowId })
    .select('temporal_workflow_id', 'status', 'started_at', 'completed_at');

/** The most runs whose [start, completion] overlap at one moment. */
function mostAtOnce(runs: RunRow[]): number {
  const edges = runs.flatMap((run) => [
    { at: run.started_at.getTime(), delta: 1 },
    { at: (run.completed_at ?? new Date()).getTime(), delta: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let now = 0;
  let most = 0;
  for (const edge of edges) most = Math.max(most, (now += edge.delta));
  return most;
}

it('keeps a burst tenant to its runs in flight, loses none of its events, and serves a bystander before its backlog drains', async () => {
  const [burst, bystander] = await Promise.all([withPlayer(), withPlayer()]);
  const [busy, quiet] = await Promise.all([onTransactions(burst), onTransactions(bystander)]);
  const batch = await burst.call('/batch/events', {
    method: 'POST',
    body: Array.from({ length: BURST }, (_, index) => ({
      externalId: 'p-1',
      eventType: 'transaction',
      data: { type: 'bet', amount: index + 1, currency: 'EUR' },
    })),
  });
  expect(batch.status).toBe(202);
  expect(await waitForJob(burst, batch.body.data.jobId)).toMatchObject({ status: 'completed', output: { succeeded: BURST } });
  const probe = await bystander.call('/entities/p-1/events', {
    method: 'POST',
    body: { eventType: 'transaction', data: { type: 'bet', amount: 1, currency: 'EUR' } },
  });
  expect(probe.status).toBe(201);

  let probeRun: RunRow | undefined;
  await eventually(async () => (probeRun = (await runsOf(bystander.operator.operatorId, quiet.id))[0]) !== undefined, 30_000);
  await eventually(async () => (await runsOf(burst.operator.operatorId, busy.id)).filter((run) => run.status === 'completed').length === BURST, 90_000);
  const runs = await runsOf(burst.operator.operatorId, busy.id);

  // Nothing lost, nothing twice: one run per event.
  expect(new Set(runs.map((run) => run.temporal_workflow_id)).size).toBe(BURST);
  expect(runs.length).toBe(BURST);
  // Never more than the cap at once (without it, the 500-start burst of the start budget takes all at once).
  expect(mostAtOnce(runs)).toBeLessThanOrEqual(RUNS_IN_FLIGHT_PER_OPERATOR);
  // The bystander's run began while the burst tenant still had runs to start.
  const lastBurstStart = Math.max(...runs.map((run) => run.started_at.getTime()));
  expect(probeRun!.started_at.getTime()).toBeLessThan(lastBurstStart);
}, 150_000);
