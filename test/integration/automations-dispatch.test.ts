import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, waitForRuns, type AutomationsClient } from '../helpers/automations';
import { waitForJob } from '../helpers/data';
import { eventually } from '../helpers/eventually';

/** Some 20 ms of CPU in the sandbox: well within the 50 ms budget, heavy enough that sixty of them queue. */
const BUSY = '$sum($shuffle([1..90000])) > 0';

const setState = (key: string) => ({
  id: 'flag',
  type: 'action.set_state',
  params: { externalId: '{{ trigger.entity.externalId }}', key, value: '{{ trigger.data.amount }}' },
});

describe('event dispatch: nothing dropped for load, matching by index, failures recorded', () => {
  let app: TestApp;
  let acme: AutomationsClient;
  let rival: AutomationsClient;

  beforeAll(async () => {
    app = await startTestApp();
    [acme, rival] = await Promise.all([automationsClient(app), automationsClient(app)]);
    for (const client of [acme, rival]) {
      const player = await client.call('/entities', { method: 'POST', body: { externalId: 'p-1', entityType: 'player', data: { country: 'MT' } } });
      expect(player.status).toBe(201);
    }
  });
  afterAll(() => app.close());

  const runsOf = async (workflowId: string, status?: string) => {
    const rows: Array<{ count: string | number }> = await app.deps
      .db('automation_runs')
      .where({ automation_id: workflowId, ...(status ? { status } : {}) })
      .count({ count: '*' });
    return Number(rows[0]!.count);
  };

  const onTransactions = async (client: AutomationsClient, name: string, filter: string | undefined, key = 'risk_score') =>
    client.create({
      name,
      nodes: [{ id: 'start', type: 'trigger.event', params: { event: 'entity_event.transaction', ...(filter ? { filter } : {}) } }, setState(key)],
      edges: [{ from: 'start', to: 'flag' }],
    });

  const deposits = async (client: AutomationsClient, amounts: number[]) => {
    const batch = await client.call('/batch/events', {
      method: 'POST',
      body: amounts.map((amount) => ({ externalId: 'p-1', eventType: 'transaction', data: { type: 'deposit', amount, currency: 'EUR' } })),
    });
    expect(batch.status).toBe(202);
    expect(await waitForJob(client, batch.body.data.jobId)).toMatchObject({ status: 'completed', output: { succeeded: amounts.length } });
  };

  it('starts a run for every one of 200 events whose filter needs the sandbox, in one batch (none lost for the budget)', async () => {
    // `$contains` is not judged inline: each of these evaluations crosses into the sandbox, 200 at once.
    const workflow = await onTransactions(acme, 'Deposits by type', '$contains(trigger.data.type, "dep")');
    await deposits(
      acme,
      Array.from({ length: 200 }, (_, index) => index + 1),
    );
    await eventually(async () => (await runsOf(workflow.id, 'completed')) === 200, 90_000);
    // One run per event: each has its own Temporal id, derived from the event.
    const distinct: Array<{ count: string | number }> = await app.deps
      .db('automation_runs')
      .where({ automation_id: workflow.id })
      .countDistinct({ count: 'temporal_workflow_id' });
    expect(Number(distinct[0]!.count)).toBe(200);
    expect(await runsOf(workflow.id)).toBe(200);
    const skipped = await acme.wf(`/workflows/${workflow.id}/skipped-triggers`);
    expect(skipped.body).toEqual({ success: true, data: [] });
    expect((await acme.wf('/event-dispatch')).body.data.pending).toBe(0);
  }, 120_000);

  it('fires, of 20 automations each waiting for its own amount, exactly the one whose amount came', async () => {
    const workflows = [];
    for (let amount = 1001; amount <= 1020; amount += 1) workflows.push(await onTransactions(rival, `Amount ${amount}`, `trigger.data.amount = ${amount}`));
    await deposits(rival, [1007, 1013, 5]);
    const seven = await waitForRuns(rival, workflows[6].id, 1);
    const thirteen = await waitForRuns(rival, workflows[12].id, 1);
    expect([seven[0].input.data.amount, thirteen[0].input.data.amount]).toEqual([1007, 1013]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const [index, workflow] of workflows.entries()) {
      const expected = index === 6 || index === 12 ? 1 : 0;
      expect({ amount: 1001 + index, runs: (await rival.wf(`/workflows/${workflow.id}/runs`)).body.count }).toEqual({ amount: 1001 + index, runs: expected });
    }
  });

  it('records a filter that fails for an event as a skipped trigger with its reason, shown to its operator only', async () => {
    const workflow = await acme.create({
      name: 'Broken filter',
      nodes: [
        { id: 'start', type: 'trigger.event', params: { event: 'entity_event.session', filter: '$number(trigger.data.device) > 1' } },
        { id: 'flag', type: 'action.set_state', params: { externalId: 'p-1', key: 'loyalty_tier', value: 'gold' } },
      ],
      edges: [{ from: 'start', to: 'flag' }],
    });
    const sent = await acme.call('/entities/p-1/events', { method: 'POST', body: { eventType: 'session', data: { device: 'ios' } } });
    expect(sent.status).toBe(201);
    let skips: any[] = [];
    await eventually(async () => {
      skips = (await acme.wf(`/workflows/${workflow.id}/skipped-triggers`)).body.data;
      return skips.length === 1;
    }, 15_000);
    expect(skips[0]).toMatchObject({
      workflow_version: 1,
      node_id: 'start',
      event_id: expect.stringMatching(/^evt_/),
      event: 'entity_event.session',
      reason: 'filter_failed',
      code: 'EXPRESSION_ERROR',
    });
    expect(skips[0].message).toContain('$number');
    expect((await acme.wf(`/workflows/${workflow.id}/runs`)).body.count).toBe(0);
    expect(await acme.wf(`/workflows/${workflow.id}/skipped-triggers?reason=key_failed`)).toMatchObject({ status: 200, body: { data: [] } });
    expect(await rival.wf(`/workflows/${workflow.id}/skipped-triggers`)).toMatchObject({
      status: 404,
      body: { success: false, error: { code: 'WORKFLOW_NOT_FOUND' } },
    });
    expect(await acme.wf(`/workflows/${workflow.id}/skipped-triggers?reason=dropped`)).toMatchObject({ status: 400 });
    // Stored sealed: a JSONata message may quote the event's values.
    const [stored] = await app.deps.db('automation_trigger_skips').where({ automation_id: workflow.id }).select('message');
    expect(stored.message).not.toContain('$number');
  });

  it("lets 150 runs' conditions past their organisation's burst of the sandbox wait for its share: none fails for it", async () => {
    const client = await automationsClient(app);
    await client.call('/entities', { method: 'POST', body: { externalId: 'p-1', entityType: 'player', data: { country: 'MT' } } });
    // Tens of milliseconds of CPU each, in the sandbox: 150 of them spend more than the organisation's 1 s burst.
    const busy = await client.create({
      name: 'Busy condition',
      nodes: [
        { id: 'start', type: 'trigger.event', params: { event: 'entity_event.session' } },
        { id: 'check', type: 'condition', params: { expression: BUSY } },
        { id: 'flag', type: 'action.set_state', params: { externalId: 'p-1', key: 'loyalty_tier', value: 'gold' } },
      ],
      edges: [
        { from: 'start', to: 'check' },
        { from: 'check', to: 'flag', when: true },
      ],
    });
    const sessions = await client.call('/batch/events', {
      method: 'POST',
      body: Array.from({ length: 150 }, () => ({ externalId: 'p-1', eventType: 'session', data: { device: 'ios' } })),
    });
    expect(sessions.status).toBe(202);
    await eventually(async () => (await runsOf(busy.id)) === 150, 60_000);
    await eventually(async () => (await runsOf(busy.id, 'running')) === 0, 150_000);
    const failed: Array<{ error: unknown }> = await app.deps
      .db('automation_runs')
      .where({ automation_id: busy.id })
      .whereNot({ status: 'completed' })
      .select('error');
    expect(failed).toEqual([]);
  }, 280_000);
});
