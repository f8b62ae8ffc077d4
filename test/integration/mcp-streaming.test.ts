import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createWorkflow, mcpOperator, mcpPost, openEventStream, rpc, toolAutomation, type McpOperator } from '../helpers/mcp';
import { postAcceptingStream, sdkClient } from '../helpers/mcpClients';
import { startProvider, type TestProvider } from '../helpers/providerServer';

let app: TestApp;
let provider: TestProvider;
let alice: McpOperator;
let toolName: string;
let workflowId: string;

/** Three slow steps, so a run reports progress while it goes (4 nodes with the trigger). */
const steps = (url: string) => ['one', 'two', 'three'].map((id) => ({ id, type: 'action.http_request', params: { method: 'GET', url: `${url}/${id}` } }));

beforeAll(async () => {
  app = await startTestApp();
  provider = await startProvider(() => ({ status: 200, body: { ok: true }, delayMs: 400 }));
  alice = await mcpOperator(app.url);
  const workflow = await createWorkflow(app.url, alice.accessToken, toolAutomation('Three steps', steps(provider.url)));
  [toolName, workflowId] = [workflow.mcp_tool_name, workflow.id];
});
afterAll(async () => {
  await Promise.all([app.close(), provider.close()]);
});

const callParams = (token?: string) => ({
  name: toolName,
  arguments: { playerId: 'p-1' },
  ...(token === undefined ? {} : { _meta: { progressToken: token } }),
});

function expectOrderedProgress(progress: Array<{ progress: number; total?: number }>) {
  const values = progress.map((frame) => frame.progress);
  expect(values.length).toBeGreaterThanOrEqual(2);
  expect(values).toEqual([...new Set(values)].sort((a, b) => a - b));
  expect(progress.at(-1)).toMatchObject({ progress: 4, total: 4 });
}

describe('tools/call answered as a stream: protection and errors stay JSON', () => {
  it('authentication failures of a streaming-capable client are JSON with the spec’s statuses', async () => {
    const request = rpc('tools/call', callParams('t'));
    const missing = await http(`${app.url}/mcp-server`, { body: request, headers: { accept: 'application/json, text/event-stream' } });
    expect([missing.status, missing.headers.get('content-type'), missing.body]).toEqual([
      401,
      'application/json; charset=utf-8',
      { jsonrpc: '2.0', id: request.id, error: { code: -32001, message: 'code: AUTH_MISSING' } },
    ]);
  });

  it('-32602 for an unknown tool or bad arguments is a JSON answer, not a stream, and nothing runs', async () => {
    const unknown = rpc('tools/call', { name: 'nope', arguments: {}, _meta: { progressToken: 't' } });
    const first = await postAcceptingStream(app.url, alice.key, unknown);
    expect([first.status, first.contentType, first.body]).toEqual([
      200,
      'application/json; charset=utf-8',
      { jsonrpc: '2.0', id: unknown.id, error: { code: -32602, message: 'Unknown tool: nope' } },
    ]);
    const typed = rpc('tools/call', { name: toolName, arguments: { playerId: 7 }, _meta: { progressToken: 't' } });
    const second = await postAcceptingStream(app.url, alice.key, typed);
    expect(second.body).toEqual({
      jsonrpc: '2.0',
      id: typed.id,
      error: { code: -32602, message: 'Invalid arguments: playerId must be of type string', data: { problems: ['playerId must be of type string'] } },
    });
    const runs = await http(`${app.url}/workflows-api/workflows/${workflowId}/runs`, { token: alice.key });
    const whole = await Promise.all(
      runs.body.data.map(async (run: { id: string }) => (await http(`${app.url}/workflows-api/runs/${run.id}`, { token: alice.key })).body.data),
    );
    expect(whole.filter((run: { input: unknown }) => JSON.stringify(run.input) === '{"playerId":7}')).toEqual([]);
  });
});

describe('tools/call with a progressToken from a client accepting text/event-stream (MCP Streamable HTTP)', () => {
  it('the SDK’s onprogress gets ordered progress while the run goes, then the result', async () => {
    const { client, transport } = sdkClient(app.url, alice.key);
    await client.connect(transport);
    try {
      const progress: Array<{ progress: number; total?: number; message?: string }> = [];
      const result = await client.callTool({ name: toolName, arguments: { playerId: 'p-sdk' } }, undefined, { onprogress: (frame) => progress.push(frame) });
      expectOrderedProgress(progress);
      expect(progress.some((frame) => frame.message?.startsWith('running '))).toBe(true);
      expect(result.isError).toBe(false);
      const runId = (result._meta as { execution_id: string }).execution_id;
      const run = await http(`${app.url}/workflows-api/runs/${runId}`, { token: alice.key });
      expect(run.body.data).toMatchObject({ source: 'mcp', status: 'completed', input: { playerId: 'p-sdk' } });
      expect(run.body.data.nodes.map((node: { status: string }) => node.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    } finally {
      await client.close();
    }
  });

  it('answers 200 text/event-stream: progress notifications for the token, then the JSON-RPC result, then the end', async () => {
    const request = rpc('tools/call', callParams('tok-raw'));
    const stream = await postAcceptingStream(app.url, alice.key, request);
    expect([stream.status, stream.contentType]).toEqual([200, 'text/event-stream; charset=utf-8']);
    await stream.ended;
    const last = stream.messages.at(-1);
    expect(last).toEqual({
      jsonrpc: '2.0',
      id: request.id,
      result: expect.objectContaining({ isError: false, _meta: { execution_id: expect.stringMatching(/^run_/), duration_ms: expect.any(Number) } }),
    });
    const progress = stream.messages.slice(0, -1);
    for (const frame of progress) expect(frame).toMatchObject({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok-raw' } });
    expectOrderedProgress(progress.map((frame) => frame.params));
  });

  it('answers plain JSON when the client accepts only JSON (or sends no token)', async () => {
    for (const [headers, token] of [
      [{ accept: 'application/json' }, 'tok-json'],
      [{}, 'tok-any'],
      [{ accept: 'application/json, text/event-stream' }, undefined],
    ] as const) {
      const request = rpc('tools/call', callParams(token));
      const response = await mcpPost(app.url, alice.key, request, { headers });
      expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/json; charset=utf-8']);
      expect(response.body).toMatchObject({ jsonrpc: '2.0', id: request.id, result: { isError: false } });
    }
  });

  it('the spec’s channel of the call’s session still gets the same progress', async () => {
    const channel = await openEventStream(app.url, alice.key, '?session=both-ways');
    try {
      await channel.waitFor(() => channel.comments.includes('stream open'));
      const stream = await postAcceptingStream(app.url, alice.key, rpc('tools/call', callParams('tok-both')), { 'mcp-session-id': 'both-ways' });
      await stream.ended;
      const onChannel = () => channel.events.map((event) => JSON.parse(event.data).params);
      await channel.waitFor(() => onChannel().some((frame) => frame.progress === 4));
      expect(onChannel().every((frame) => frame.progressToken === 'tok-both')).toBe(true);
      expectOrderedProgress(onChannel());
      expect(stream.messages.at(-1).result.isError).toBe(false);
    } finally {
      channel.close();
    }
  });
});
