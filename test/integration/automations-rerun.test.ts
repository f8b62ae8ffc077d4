import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, chain, type AutomationsClient } from '../helpers/automations';
import { http } from '../helpers/http';
import { addMemberAndSignIn } from '../helpers/members';
import { startProvider, type TestProvider } from '../helpers/providerServer';

/** Polls `GET /runs/:runId` until the run has ended, and returns it whole. */
async function finished(client: AutomationsClient, runId: string, timeoutMs = 30_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await client.wf(`/runs/${runId}`);
    if (response.status === 200 && response.body.data.status !== 'running') return response.body.data;
    if (Date.now() > deadline) throw new Error(`run ${runId} did not end: ${response.status} ${response.text}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

describe('rerun from a step (POST /workflows-api/runs/:runId/rerun)', () => {
  let app: TestApp;
  let acme: AutomationsClient;
  let rival: AutomationsClient;
  let supplier: TestProvider;
  let supplierUp = false;
  const hits = (path: string) => supplier.requests.filter((request) => request.path === path);

  /** start → first (HTTP) → big (condition) → call (HTTP, the flaky supplier) → done (state); small on the other branch. */
  const definition = (callPath: string) => ({
    name: `Deposit follow-up ${callPath}`,
    nodes: [
      {
        id: 'start',
        type: 'trigger.manual',
        params: { inputSchema: { type: 'object', properties: { playerId: { type: 'string' }, amount: { type: 'number' } }, required: ['playerId'] } },
      },
      { id: 'first', type: 'action.http_request', params: { method: 'POST', url: `${supplier.url}/first`, body: { player: '{{ trigger.playerId }}' } } },
      { id: 'big', type: 'condition', params: { expression: 'trigger.amount > 10' } },
      {
        id: 'call',
        type: 'action.http_request',
        params: { method: 'POST', url: `${supplier.url}${callPath}`, body: { player: '{{ trigger.playerId }}', seen: '{{ nodes.first.body.n }}' } },
      },
      { id: 'done', type: 'action.set_state', params: { externalId: '{{ trigger.playerId }}', key: 'risk_score', value: '{{ nodes.call.status / 10 }}' } },
      { id: 'small', type: 'action.http_request', params: { method: 'POST', url: `${supplier.url}/small` } },
    ],
    edges: [
      { from: 'start', to: 'first' },
      { from: 'first', to: 'big' },
      { from: 'big', to: 'call', when: true },
      { from: 'call', to: 'done' },
      { from: 'big', to: 'small', when: false },
    ],
  });

  /** Runs the automation with the supplier down: the run fails at `call` after its retries. */
  const failedRun = async (workflowId: string) => {
    supplierUp = false;
    const started = await acme.wf(`/workflows/${workflowId}/test`, { method: 'POST', body: { playerId: 'p-1', amount: 50 } });
    expect([200, 202]).toContain(started.status);
    const run = await finished(acme, started.body.data.id);
    expect(run).toMatchObject({ status: 'failed', error: { code: 'ACTION_FAILED', nodeId: 'call' }, rerunOf: null, rerunFromNodeId: null, replayId: null });
    supplierUp = true;
    return run;
  };

  beforeAll(async () => {
    app = await startTestApp({ WORKFLOW_TEST_WAIT_MS: '300' });
    [acme, rival] = await Promise.all([automationsClient(app), automationsClient(app)]);
    let n = 0;
    supplier = await startProvider((request) => {
      if (request.path === '/first') return { status: 200, body: { n: (n += 1) } };
      if (request.path.startsWith('/flaky') && !supplierUp) return { status: 500, body: { error: 'down' } };
      return { status: 200, body: { ok: true, path: request.path } };
    });
    expect((await acme.call('/entities', { method: 'POST', body: { externalId: 'p-1', entityType: 'player', data: {} } })).status).toBe(201);
  });
  afterAll(async () => {
    await supplier.close();
    await app.close();
  });

  it('needs credentials (401) and a manager to write (403 FORBIDDEN for a Member)', async () => {
    expect(await http(`${app.url}/workflows-api/runs/run_x/rerun`, { method: 'POST', body: { fromNodeId: 'call' } })).toMatchObject({
      status: 401,
      body: { success: false, error: { code: 'UNAUTHORIZED', message: 'Authorization header is required' } },
    });
    const member = await addMemberAndSignIn(app.deps.db, app.url, acme.operator.operatorId, 'member');
    expect(await http(`${app.url}/workflows-api/runs/run_x/rerun`, { method: 'POST', token: member.accessToken, body: { fromNodeId: 'call' } })).toMatchObject({
      status: 403,
      body: { success: false, error: { code: 'FORBIDDEN', message: 'Only the Owner or an Admin can manage workflows' } },
    });
  });

  it('reruns from the failed step once the supplier recovered: same payload, earlier steps reused and not re-executed', async () => {
    const workflow = await acme.create(definition('/flaky'));
    const original = await failedRun(workflow.id);
    expect(hits('/first')).toHaveLength(1);
    const failedCalls = hits('/flaky').length;
    expect(failedCalls).toBeGreaterThanOrEqual(2);
    const usageBefore = (await acme.wf('/usage')).body.data.actions.used;

    const rerun = await acme.wf(`/runs/${original.id}/rerun`, { method: 'POST', body: { fromNodeId: 'call' } });
    expect(rerun.status).toBe(202);
    expect(rerun.body).toEqual({
      success: true,
      data: { runId: expect.stringMatching(/^run_/), rerunOf: original.id, fromNodeId: 'call', workflowVersion: 1 },
    });
    const run = await finished(acme, rerun.body.data.runId);
    expect(run).toMatchObject({
      status: 'completed',
      source: 'manual',
      workflowVersion: 1,
      input: { playerId: 'p-1', amount: 50 },
      rerunOf: original.id,
      rerunFromNodeId: 'call',
      replayId: null,
    });
    expect(run.nodes.map((node: any) => [node.id, node.status, node.reused ?? false])).toEqual([
      ['start', 'completed', false],
      ['first', 'completed', true],
      ['big', 'completed', true],
      ['call', 'completed', false],
      ['done', 'completed', false],
      ['small', 'skipped', false],
    ]);
    expect(run.nodes[1].output).toEqual(original.nodes[1].output);
    expect(run.nodes[2].output).toEqual({ result: true });
    // The supplier was called once more, the earlier step not at all; the reused output fed the rerun's templates.
    expect(hits('/first')).toHaveLength(1);
    expect(hits('/flaky')).toHaveLength(failedCalls + 1);
    const call = hits('/flaky').at(-1)!;
    expect(call.json).toEqual({ player: 'p-1', seen: 1 });
    expect(call.headers['idempotency-key']).toBe(`${run.id}:call`);
    expect((await acme.call('/entities/p-1/state/risk_score')).body.data.value).toBe(20);
    // Two actions ran (call, done); the reused one was not counted.
    expect((await acme.wf('/usage')).body.data.actions.used).toBe(usageBefore + 2);

    // Reserved: the worst case of what may still run (call, done, and small, which the original skipped), never first.
    const row = await app.deps.db('automation_runs').where({ id: run.id }).first();
    expect(row).toMatchObject({ rerun_of: original.id, rerun_from_node_id: 'call', replay_id: null, automation_id: workflow.id, reserved_actions: 3 });
    const listed = await acme.wf(`/workflows/${workflow.id}/runs`);
    expect(listed.body.data[0]).toMatchObject({ id: run.id, rerunOf: original.id, rerunFromNodeId: 'call', replayId: null });
    expect(listed.body.data[0].nodes[1]).toEqual({ id: 'first', status: 'completed', durationMs: 0, reused: true });
  });

  it("runs the original's version or the current one", async () => {
    const workflow = await acme.create(definition('/flaky'));
    const original = await failedRun(workflow.id);
    const updated = await acme.wf(`/workflows/${workflow.id}`, { method: 'PUT', body: definition('/flaky-v2') });
    expect(updated.body.data.version).toBe(2);

    const onRun = await acme.wf(`/runs/${original.id}/rerun`, { method: 'POST', body: { fromNodeId: 'call', version: 'run' } });
    expect(onRun.body.data).toMatchObject({ workflowVersion: 1 });
    const v1 = await finished(acme, onRun.body.data.runId);
    expect(v1).toMatchObject({ status: 'completed', workflowVersion: 1 });
    expect(v1.nodes.find((node: any) => node.id === 'call').output.body.path).toBe('/flaky');

    const onCurrent = await acme.wf(`/runs/${original.id}/rerun`, { method: 'POST', body: { fromNodeId: 'call', version: 'current' } });
    expect(onCurrent.body.data).toMatchObject({ workflowVersion: 2 });
    const v2 = await finished(acme, onCurrent.body.data.runId);
    expect(v2).toMatchObject({ status: 'completed', workflowVersion: 2, rerunOf: original.id });
    expect(v2.nodes.find((node: any) => node.id === 'call').output.body.path).toBe('/flaky-v2');
    expect(hits('/first')).toHaveLength(2);
  });

  it('runs a step the original skipped only because it had failed, though it is not downstream of the chosen step', async () => {
    const workflow = await acme.create({
      name: 'Two branches',
      nodes: [
        { id: 'start', type: 'trigger.manual', params: {} },
        { id: 'one', type: 'action.http_request', params: { method: 'GET', url: `${supplier.url}/flaky-branch` } },
        { id: 'two', type: 'action.http_request', params: { method: 'GET', url: `${supplier.url}/two` } },
      ],
      edges: [
        { from: 'start', to: 'one' },
        { from: 'start', to: 'two' },
      ],
    });
    supplierUp = false;
    const started = await acme.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: {} });
    const original = await finished(acme, started.body.data.id);
    expect(original.nodes.map((node: any) => node.status)).toEqual(['completed', 'failed', 'skipped']);
    supplierUp = true;
    const rerun = await acme.wf(`/runs/${original.id}/rerun`, { method: 'POST', body: { fromNodeId: 'one' } });
    const run = await finished(acme, rerun.body.data.runId);
    expect(run.nodes.map((node: any) => [node.id, node.status, node.reused ?? false])).toEqual([
      ['start', 'completed', false],
      ['one', 'completed', false],
      ['two', 'completed', false],
    ]);
    expect(hits('/two')).toHaveLength(1);
  });

  it('refuses a trigger, an unknown step and a malformed body (400 naming the field)', async () => {
    const workflow = await acme.create(definition('/flaky'));
    const original = await failedRun(workflow.id);
    expect(await acme.wf(`/runs/${original.id}/rerun`, { method: 'POST', body: { fromNodeId: 'start' } })).toMatchObject({
      status: 400,
      body: {
        success: false,
        error: {
          code: 'VALIDATION_FAILED',
          message: 'Invalid input: start is a trigger of version 1: choose a step after it',
          details: [{ field: 'fromNodeId', message: 'start is a trigger of version 1: choose a step after it' }],
        },
      },
    });
    expect(await acme.wf(`/runs/${original.id}/rerun`, { method: 'POST', body: { fromNodeId: 'nope', version: 'current' } })).toMatchObject({
      status: 400,
      body: {
        success: false,
        error: {
          code: 'VALIDATION_FAILED',
          message: 'Invalid input: nope is not a step of version 1',
          details: [{ field: 'fromNodeId', message: 'nope is not a step of version 1' }],
        },
      },
    });
    const wrongType = await acme.wf(`/runs/${original.id}/rerun`, { method: 'POST', body: { fromNodeId: 5 } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [expect.objectContaining({ field: 'fromNodeId' })] });
    const badVersion = await acme.wf(`/runs/${original.id}/rerun`, { method: 'POST', body: { fromNodeId: 'call', version: 'latest' } });
    expect(badVersion.status).toBe(400);
    expect(badVersion.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [expect.objectContaining({ field: 'version' })] });
    const runs = await app.deps.db('automation_runs').where({ rerun_of: original.id });
    expect(runs).toHaveLength(0);
  });

  it('answers 404 RUN_NOT_FOUND for an unknown run and 409 RUN_STILL_RUNNING while the original runs', async () => {
    expect(await acme.wf('/runs/run_missing/rerun', { method: 'POST', body: { fromNodeId: 'call' } })).toMatchObject({
      status: 404,
      body: { success: false, error: { code: 'RUN_NOT_FOUND', message: 'Run not found' } },
    });
    const sleeper = await acme.create(chain('Sleeper', [{ id: 'wait', type: 'action.delay', params: { seconds: 30 } }]));
    const started = await acme.wf(`/workflows/${sleeper.id}/test`, { method: 'POST', body: {} });
    expect(started.status).toBe(202);
    expect(await acme.wf(`/runs/${started.body.data.id}/rerun`, { method: 'POST', body: { fromNodeId: 'wait' } })).toMatchObject({
      status: 409,
      body: {
        success: false,
        error: { code: 'RUN_STILL_RUNNING', message: 'The run is still running: rerun it once it has ended (or cancel it first)' },
      },
    });
    await acme.wf(`/runs/${started.body.data.id}/cancel`, { method: 'POST' });
    expect((await finished(acme, started.body.data.id)).status).toBe('cancelled');
  });

  it("keeps operators apart: B's rerun of A's run is 404 RUN_NOT_FOUND and starts nothing", async () => {
    const workflow = await acme.create(definition('/flaky'));
    const original = await failedRun(workflow.id);
    expect(await rival.wf(`/runs/${original.id}/rerun`, { method: 'POST', body: { fromNodeId: 'call' } })).toMatchObject({
      status: 404,
      body: { success: false, error: { code: 'RUN_NOT_FOUND', message: 'Run not found' } },
    });
    expect(await app.deps.db('automation_runs').where({ rerun_of: original.id })).toHaveLength(0);
  });
});
