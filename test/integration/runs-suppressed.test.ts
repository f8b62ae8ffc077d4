import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, type AutomationsClient } from '../helpers/automations';

/**
 * A marketing step the responsible-gambling gate suppressed is named as such wherever its run shows (issue #44): its
 * status stays `completed` (the spec's node statuses) and `suppressed: { rule }` beside it — in the run, in a
 * workflow's run list and in the runs explorer, which filters on it (any rule or one), each operator on its own runs.
 */
let app: TestApp;
let acme: AutomationsClient;
let globex: AutomationsClient;

const workflow = (name: string, marketing: boolean) => ({
  name,
  nodes: [
    { id: 'deposit', type: 'trigger.event', params: { event: 'entity_event.transaction' } },
    marketing
      ? { id: 'email', type: 'action.send_email', params: { to: '{{ trigger.entity.externalId }}@players.test', subject: 'Bonus', text: 'Hi' } }
      : { id: 'email', type: 'action.note', params: { text: 'no email' } },
    { id: 'after', type: 'action.set_state', params: { externalId: '{{ trigger.entity.externalId }}', key: 'loyalty_tier', value: 'seen' } },
  ],
  edges: [
    { from: 'deposit', to: 'email' },
    { from: 'email', to: 'after' },
  ],
});

async function player(client: AutomationsClient, externalId: string, compliance: Record<string, unknown>): Promise<void> {
  expect((await client.call('/entities', { method: 'POST', body: { externalId, entityType: 'player', data: { country: 'MT' } } })).status).toBe(201);
  expect((await client.call(`/entities/${externalId}/state/compliance`, { method: 'PUT', body: { value: compliance } })).status).toBe(200);
  expect((await client.call(`/entities/${externalId}/state/consent`, { method: 'PUT', body: { value: { email: true } } })).status).toBe(200);
}

async function depositRun(client: AutomationsClient, workflowId: string, externalId: string): Promise<any> {
  const event = {
    id: `evt_${randomUUID().replace(/-/g, '')}`,
    event: 'entity_event.transaction',
    operatorId: client.operator.operatorId,
    occurredAt: new Date().toISOString(),
    entity: { id: 'ent_x', externalId, entityType: 'player' },
    data: { type: 'deposit', amount: 5000, currency: 'EUR' },
  };
  const response = await client.wf(`/workflows/${workflowId}/test`, { method: 'POST', body: event });
  expect(response.status).toBe(200);
  expect(response.body.data.status).toBe('completed');
  return response.body.data;
}

beforeAll(async () => {
  app = await startTestApp({ WORKFLOW_TEST_WAIT_MS: '20000' });
  [acme, globex] = await Promise.all([automationsClient(app), automationsClient(app)]);
});
afterAll(async () => {
  await app?.close();
});

describe('a suppressed step', () => {
  let excludedRun: any;
  let coolingRun: any;
  let plainRun: any;
  let marketingId: string;

  beforeAll(async () => {
    await player(acme, 'p-excluded', { selfExcluded: true, coolingOff: false, exclusionSources: ['gamstop'], depositLimit: 0 });
    await player(acme, 'p-cooling', { selfExcluded: false, coolingOff: true, exclusionSources: [], depositLimit: 0 });
    marketingId = (await acme.create(workflow('Deposit bonus', true))).id;
    const plainId = (await acme.create(workflow('Deposit note', false))).id;
    excludedRun = await depositRun(acme, marketingId, 'p-excluded');
    coolingRun = await depositRun(acme, marketingId, 'p-cooling');
    plainRun = await depositRun(acme, plainId, 'p-excluded');
  });

  it('keeps its status completed and names its rule beside it, in the run', async () => {
    const run = (await acme.wf(`/runs/${excludedRun.id}`)).body.data;
    expect(run.nodes[1]).toMatchObject({
      id: 'email',
      status: 'completed',
      suppressed: { rule: 'self_excluded' },
      output: { suppressed: true, rule: 'self_excluded' },
    });
    expect(run.nodes[2]).toMatchObject({ id: 'after', status: 'completed' });
    expect(run.nodes[2].suppressed).toBeUndefined();
    const plain = (await acme.wf(`/runs/${plainRun.id}`)).body.data;
    expect(plain.nodes.map((node: { suppressed?: unknown }) => node.suppressed)).toEqual([undefined, undefined, undefined]);
  });

  it("names it in the workflow's run list, which opens nothing sealed", async () => {
    const list = (await acme.wf(`/workflows/${marketingId}/runs`)).body.data as Array<{ id: string; nodes: Array<Record<string, unknown>> }>;
    const byId = new Map(list.map((run) => [run.id, run]));
    expect(byId.get(excludedRun.id)!.nodes[1]).toEqual({
      id: 'email',
      status: 'completed',
      durationMs: expect.any(Number),
      suppressed: { rule: 'self_excluded' },
    });
    expect(byId.get(coolingRun.id)!.nodes[1]).toMatchObject({ suppressed: { rule: 'cooling_off' } });
    expect(byId.get(excludedRun.id)!.nodes[1]).not.toHaveProperty('output');
  });

  it('is listed and filtered by the runs explorer: any rule, one rule, and none of another operator', async () => {
    const all = (await acme.wf('/runs')).body.data as Array<{ id: string; suppressed?: unknown }>;
    expect(all.find((run) => run.id === excludedRun.id)!.suppressed).toEqual([{ nodeId: 'email', rule: 'self_excluded' }]);
    expect(all.find((run) => run.id === plainRun.id)!.suppressed).toBeUndefined();

    const any = await acme.wf('/runs?suppressed=true');
    expect(any.status).toBe(200);
    expect(any.body.data.map((run: { id: string }) => run.id).sort()).toEqual([excludedRun.id, coolingRun.id].sort());
    expect(any.body.count).toBe(2);
    const cooling = await acme.wf('/runs?suppressed=cooling_off');
    expect(cooling.body.data.map((run: { id: string }) => run.id)).toEqual([coolingRun.id]);
    expect((await acme.wf('/runs?suppressed=quiet_hours')).body).toMatchObject({ data: [], count: 0 });
    expect((await globex.wf('/runs?suppressed=true')).body).toMatchObject({ data: [], count: 0 });
  });

  it('refuses an unknown rule with 400 naming the filter', async () => {
    const response = await acme.wf('/runs?suppressed=maybe');
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    expect(response.body.error.details).toEqual([{ field: 'suppressed', message: expect.stringContaining('must be true or one of self_excluded') }]);
  });
});
