import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createWorkflow, mcpOperator, mcpPost, rpc, toolAutomation, type McpOperator } from '../helpers/mcp';
import { postAcceptingStream, sdkClient, settledRun } from '../helpers/mcpClients';
import { startProvider, type TestProvider } from '../helpers/providerServer';

let app: TestApp;
let peer: TestApp;
let provider: TestProvider;

beforeAll(async () => {
  [app, peer] = await Promise.all([startTestApp(), startTestApp()]);
  provider = await startProvider(() => ({ status: 200, body: { ok: true } }));
});
afterAll(async () => {
  await Promise.all([app.close(), peer.close(), provider.close()]);
});

/** A fresh operator whose tool calls the supplier, waits 30 s (a durable timer), then calls it again. */
async function delayedTool(label: string): Promise<{ operator: McpOperator; name: string; workflowId: string }> {
  const operator = await mcpOperator(app.url);
  const workflow = await createWorkflow(
    app.url,
    operator.accessToken,
    toolAutomation(`Delayed ${label}`, [
      { id: 'first', type: 'action.http_request', params: { method: 'POST', url: `${provider.url}/${label}/first` } },
      { id: 'wait', type: 'action.delay', params: { seconds: 30 } },
      { id: 'after', type: 'action.http_request', params: { method: 'POST', url: `${provider.url}/${label}/after` } },
    ]),
  );
  return { operator, name: workflow.mcp_tool_name, workflowId: workflow.id };
}

const paths = (label: string) => provider.requests.map((request) => request.path).filter((path) => path.startsWith(`/${label}/`));

async function until(predicate: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The run of a workflow's only call, once its delay has started (the live record's step in flight). */
async function waitingRun(baseUrl: string, key: string, workflowId: string): Promise<any> {
  let run: any;
  await until(async () => {
    const runs = await http(`${baseUrl}/workflows-api/workflows/${workflowId}/runs`, { token: key });
    run = runs.body.data?.[0];
    // A running run's record shows its steps live (docs/workflows.md "A run while it lives"): wait for the delay in flight.
    return run?.status === 'running' && run.nodes.some((node: any) => node.id === 'wait' && node.status === 'running');
  }, 'the run to be recorded');
  return run;
}

/** What a cancelled run of `delayedTool` looks like: the delay cut short, the second call never made. */
async function expectCancelled(label: string, operator: McpOperator, runId: string) {
  const run = await settledRun(app.url, operator.key, runId);
  expect(run).toMatchObject({
    source: 'mcp',
    status: 'cancelled',
    output: null,
    error: { code: 'RUN_CANCELLED', message: 'The run was cancelled', nodeId: 'wait' },
  });
  expect(run.nodes.map((node: { id: string; status: string }) => [node.id, node.status])).toEqual([
    ['start', 'completed'],
    ['first', 'completed'],
    ['wait', 'cancelled'],
    ['after', 'skipped'],
  ]);
  expect(run.durationMs).toBeLessThan(30_000);
  const description = await app.deps.temporal.client.workflow.getHandle(run.temporalWorkflowId).describe();
  expect(description.status.name).toBe('CANCELLED');
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(paths(label)).toEqual([`/${label}/first`]);
  const usage = await http(`${app.url}/workflows-api/usage`, { token: operator.key });
  expect(usage.body.data.actions.used).toBe(2);
}

describe('notifications/cancelled: who may cancel', () => {
  it('only the same operator and session cancel a call; others, and a cancel without a session, change nothing', async () => {
    const { operator, name, workflowId } = await delayedTool('scoped');
    const bob = await mcpOperator(app.url);
    const request = rpc('tools/call', { name, arguments: { playerId: 'p-1' } });
    const answer = mcpPost(app.url, operator.key, request, { headers: { 'mcp-session-id': 'shared' } });
    await until(() => paths('scoped').length === 1, 'the first call');
    const run = await waitingRun(app.url, operator.key, workflowId);
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: request.id, reason: 'not yours' } };
    for (const [key, headers] of [
      [bob.key, { 'mcp-session-id': 'shared' }],
      [operator.key, { 'mcp-session-id': 'other' }],
      [operator.key, {}],
    ] as const) {
      const response = await mcpPost(app.url, key, cancel, { headers });
      expect([response.status, response.text]).toEqual([202, '']);
    }
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect((await http(`${app.url}/workflows-api/runs/${run.id}`, { token: operator.key })).body.data.status).toBe('running');

    expect((await mcpPost(app.url, operator.key, cancel, { headers: { 'mcp-session-id': 'shared' } })).status).toBe(202);
    const response = await answer;
    expect(response.body.result).toMatchObject({ isError: true, _meta: { execution_id: run.id } });
    await expectCancelled('scoped', operator, run.id);
  });
});

describe('cancelling a running tools/call (MCP cancellation)', () => {
  it('the SDK aborting a call cancels its Temporal run during the delay: the next action never runs', async () => {
    const { operator, name, workflowId } = await delayedTool('sdk');
    const { client, transport } = sdkClient(app.url, operator.key);
    await client.connect(transport);
    try {
      const controller = new AbortController();
      const progress: Array<{ message?: string }> = [];
      const call = client.callTool({ name, arguments: { playerId: 'p-1' } }, undefined, {
        signal: controller.signal,
        onprogress: (frame) => progress.push(frame),
      });
      call.catch(() => undefined);
      await until(() => progress.some((frame) => frame.message === 'running wait'), 'the delay to start');
      const run = await waitingRun(app.url, operator.key, workflowId);
      controller.abort('the user stopped it');
      await expect(call).rejects.toThrow(/the user stopped it/);
      await expectCancelled('sdk', operator, run.id);
    } finally {
      await client.close();
    }
  });

  it('a streamed call’s stream closes without a result once its run is cancelled', async () => {
    const { operator, name, workflowId } = await delayedTool('stream');
    const request = rpc('tools/call', { name, arguments: { playerId: 'p-1' }, _meta: { progressToken: 'tok-cancel' } });
    const stream = await postAcceptingStream(app.url, operator.key, request, { 'mcp-session-id': 'cancel-stream' });
    expect(stream.contentType).toBe('text/event-stream; charset=utf-8');
    await stream.waitFor(() => stream.messages.some((message) => message.params?.message === 'running wait'));
    const run = await waitingRun(app.url, operator.key, workflowId);
    const cancel = await mcpPost(
      app.url,
      operator.key,
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: request.id } },
      {
        headers: { 'mcp-session-id': 'cancel-stream' },
      },
    );
    expect([cancel.status, cancel.text]).toEqual([202, '']);
    await stream.ended;
    expect(stream.messages.filter((message) => 'id' in message)).toEqual([]);
    await expectCancelled('stream', operator, run.id);
  });

  it('a cancel reaching another API instance finds the run by its record; a JSON call then answers RUN_CANCELLED', async () => {
    const { operator, name, workflowId } = await delayedTool('elsewhere');
    const request = rpc('tools/call', { name, arguments: { playerId: 'p-1' } });
    const answer = mcpPost(app.url, operator.key, request, { headers: { 'mcp-session-id': 'cancel-json' } });
    await until(() => paths('elsewhere').length === 1, 'the first call');
    const run = await waitingRun(app.url, operator.key, workflowId);
    const cancel = await mcpPost(
      peer.url,
      operator.key,
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: request.id } },
      {
        headers: { 'mcp-session-id': 'cancel-json' },
      },
    );
    expect(cancel.status).toBe(202);
    const response = await answer;
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/json; charset=utf-8']);
    expect(response.body).toEqual({
      jsonrpc: '2.0',
      id: request.id,
      result: {
        content: [{ type: 'text', text: `RUN_CANCELLED: Run ${run.id} was cancelled before it finished` }],
        isError: true,
        _meta: { execution_id: run.id, duration_ms: expect.any(Number) },
      },
    });
    await expectCancelled('elsewhere', operator, run.id);
  });
});
