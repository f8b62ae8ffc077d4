import { startTestApp, type TestApp } from '../helpers/app';
import { startProvider, type TestProvider } from '../helpers/providerServer';
import { chain, automationsClient, type AutomationsClient } from '../helpers/automations';

describe('workflow runs: manual test runs through the Temporal interpreter', () => {
  let app: TestApp;
  let client: AutomationsClient;
  let provider: TestProvider;

  beforeAll(async () => {
    app = await startTestApp();
    client = await automationsClient(app);
    provider = await startProvider(() => ({ status: 200, body: { ok: true } }));
    const player = await client.call('/entities', {
      method: 'POST',
      body: { externalId: 'p-1', entityType: 'player', data: { email: 'p1@example.test', country: 'MT' } },
    });
    expect(player.status).toBe(201);
  });
  afterAll(async () => {
    await provider.close();
    await app.close();
  });

  it('runs trigger → condition → actions with templated params and stores every node outcome', async () => {
    const workflow = await client.create({
      name: 'Flag big deposits',
      nodes: [
        {
          id: 'start',
          type: 'trigger.manual',
          params: {
            inputSchema: { type: 'object', properties: { playerId: { type: 'string' }, amount: { type: 'number' } }, required: ['playerId', 'amount'] },
          },
        },
        { id: 'big', type: 'condition', params: { expression: 'trigger.amount > 1000' } },
        { id: 'flag', type: 'action.set_state', params: { externalId: '{{ trigger.playerId }}', key: 'risk_score', value: '{{ trigger.amount / 100 }}' } },
        {
          id: 'notify',
          type: 'action.http_request',
          params: {
            method: 'POST',
            url: `${provider.url}/alerts`,
            body: { player: '{{ trigger.playerId }}', text: 'Deposit of {{ trigger.amount }} by {{ trigger.playerId }}' },
          },
        },
        { id: 'small', type: 'action.http_request', params: { method: 'POST', url: `${provider.url}/small`, body: { player: '{{ trigger.playerId }}' } } },
      ],
      edges: [
        { from: 'start', to: 'big' },
        { from: 'big', to: 'flag', when: true },
        { from: 'flag', to: 'notify' },
        { from: 'big', to: 'small', when: false },
      ],
    });
    expect(workflow).toMatchObject({ id: expect.stringMatching(/^wf_/), version: 1, mcp_tool_name: 'flag_big_deposits', active: true });

    const big = await client.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: { playerId: 'p-1', amount: 5000 } });
    expect(big.status).toBe(200);
    expect(big.body.data).toMatchObject({
      id: expect.stringMatching(/^run_/),
      workflowId: workflow.id,
      workflowVersion: 1,
      source: 'manual',
      status: 'completed',
      input: { playerId: 'p-1', amount: 5000 },
    });
    expect(big.body.data.nodes.map((node: any) => [node.id, node.status])).toEqual([
      ['start', 'completed'],
      ['big', 'completed'],
      ['flag', 'completed'],
      ['notify', 'completed'],
      ['small', 'skipped'],
    ]);
    expect(big.body.data.nodes[1].output).toEqual({ result: true });
    const alert = provider.requests.find((request) => request.path === '/alerts');
    expect(alert?.json).toEqual({ player: 'p-1', text: 'Deposit of 5000 by p-1' });
    const state = await client.call('/entities/p-1/state/risk_score');
    expect(state.body.data.value).toBe(50);

    const small = await client.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: { playerId: 'p-1', amount: 10 } });
    expect(small.body.data.status).toBe('completed');
    expect(small.body.data.nodes.map((node: any) => [node.id, node.status])).toEqual([
      ['start', 'completed'],
      ['big', 'completed'],
      ['flag', 'skipped'],
      ['notify', 'skipped'],
      ['small', 'completed'],
    ]);
    expect(provider.requests.filter((request) => request.path === '/small')).toHaveLength(1);

    const stored = await client.wf(`/runs/${big.body.data.id}`);
    expect(stored.status).toBe(200);
    expect(stored.body.data).toEqual(big.body.data);
    const runs = await client.wf(`/workflows/${workflow.id}/runs`);
    expect(runs.body.count).toBe(2);
    expect(runs.body.data.map((run: any) => run.id)).toEqual([small.body.data.id, big.body.data.id]);
  });

  it('refuses a payload missing a required trigger field before any node runs (MISSING_TRIGGER_FIELD)', async () => {
    const before = provider.requests.length;
    const workflow = await client.create(
      chain('Needs player', [{ id: 'call', type: 'action.http_request', params: { method: 'GET', url: `${provider.url}/x` } }], {
        id: 'start',
        type: 'trigger.manual',
        params: { inputSchema: { type: 'object', properties: { playerId: { type: 'string' } }, required: ['playerId'] } },
      }),
    );
    const run = await client.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: {} });
    expect(run.status).toBe(200);
    expect(run.body.data).toMatchObject({
      status: 'failed',
      nodes: [],
      error: { code: 'MISSING_TRIGGER_FIELD', message: 'Missing required trigger field: playerId' },
    });
    expect(provider.requests.length).toBe(before);
  });

  it('retries a flaky HTTP action until it succeeds; a 4xx fails the node at once with its code', async () => {
    let calls = 0;
    const flaky = await startProvider((request) => {
      if (request.path === '/gone') return { status: 404, body: { error: 'no such thing' } };
      calls += 1;
      return calls <= 2 ? { status: 503, body: { error: 'busy' } } : { status: 200, body: { attempt: calls } };
    });
    try {
      const retried = await client.create(
        chain('Flaky call', [{ id: 'call', type: 'action.http_request', params: { method: 'POST', url: `${flaky.url}/work`, body: { a: 1 } } }]),
      );
      const run = await client.wf(`/workflows/${retried.id}/test`, { method: 'POST', body: {} });
      expect(run.body.data.status).toBe('completed');
      expect(run.body.data.output).toMatchObject({ status: 200, body: { attempt: 3 } });
      expect(calls).toBe(3);

      const missing = await client.create(
        chain('Missing call', [{ id: 'call', type: 'action.http_request', params: { method: 'GET', url: `${flaky.url}/gone` } }]),
      );
      const failed = await client.wf(`/workflows/${missing.id}/test`, { method: 'POST', body: {} });
      expect(failed.body.data).toMatchObject({ status: 'failed', error: { code: 'HTTP_404', nodeId: 'call' } });
      expect(failed.body.data.nodes[1]).toMatchObject({
        id: 'call',
        status: 'failed',
        error: { code: 'HTTP_404' },
        output: { status: 404, body: { error: 'no such thing' } },
      });
      expect(flaky.requests.filter((request) => request.path === '/gone')).toHaveLength(1);
    } finally {
      await flaky.close();
    }
  });
});
