import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createApiKey, signupOperator } from '../helpers/identity';
import { createWorkflow, mcpOperator, openEventStream, openEventStreamAt, toolAutomation, type EventStream, type McpOperator } from '../helpers/mcp';
import { sdkClient, streamSlotsHeld } from '../helpers/mcpClients';

let app: TestApp;
let peer: TestApp;

beforeAll(async () => {
  [app, peer] = await Promise.all([startTestApp(), startTestApp()]);
});
afterAll(async () => {
  await Promise.all([app.close(), peer.close()]);
});

const LIST_CHANGED = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
const serviceError = (code: string) => ({ jsonrpc: '2.0', id: null, error: { code: -32001, message: `code: ${code}` } });
const tool = (name: string, options: { mcp_exposed?: boolean } = {}) =>
  toolAutomation(name, [{ id: 'wait', type: 'action.delay', params: { seconds: 1 } }], options);
const SSE = { accept: 'text/event-stream' };

const openEndpointStream = (url: string, key: string | undefined, headers: Record<string, string> = SSE, path = '/mcp-server') =>
  openEventStreamAt(`${url}${path}`, key, headers);
const framesOf = (stream: EventStream) => stream.events.map((event) => JSON.parse(event.data));
const put = (operator: McpOperator, id: string, body: Record<string, unknown>) =>
  http(`${app.url}/workflows-api/workflows/${id}`, { method: 'PUT', token: operator.key, body });

async function until(predicate: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function opened(stream: EventStream): Promise<EventStream> {
  expect(stream.status).toBe(200);
  await stream.waitFor(() => stream.comments.includes('stream open'));
  return stream;
}

describe('GET /mcp-server (the endpoint’s own stream) protection', () => {
  it('speaks the MCP auth codes, checks the legacy path’s operator, the protocol version and Accept', async () => {
    const operator = await mcpOperator(app.url);
    expect(await openEndpointStream(app.url, undefined)).toMatchObject({ status: 401, body: serviceError('AUTH_MISSING') });
    expect(await openEndpointStream(app.url, 'not-a-key')).toMatchObject({ status: 401, body: serviceError('AUTH_INVALID_FORMAT') });
    expect(await openEndpointStream(app.url, `svc_live_${'f'.repeat(64)}`)).toMatchObject({ status: 401, body: serviceError('AUTH_INVALID') });
    const plain = await signupOperator(app.url);
    const { key } = await createApiKey(app.url, plain);
    expect(await openEndpointStream(app.url, key)).toMatchObject({ status: 403, body: serviceError('MCP_NOT_ENABLED') });
    expect(await openEndpointStream(app.url, operator.key, SSE, `/mcp-server/${plain.operatorId}`)).toMatchObject({
      status: 403,
      body: serviceError('AUTH_OPERATOR_MISMATCH'),
    });
    const version = await openEndpointStream(app.url, operator.key, { ...SSE, 'mcp-protocol-version': '1999-01-01' });
    expect([version.status, version.body.error.code]).toEqual([400, -32600]);
    expect(await openEndpointStream(app.url, operator.key, { accept: 'application/json' })).toMatchObject({
      status: 406,
      body: serviceError('NOT_ACCEPTABLE'),
    });
  });

  it('shares the operator’s stream slots with the spec’s channel: beyond MCP_MAX_STREAMS_PER_OPERATOR either is 429', async () => {
    const small = await startTestApp({ MCP_MAX_STREAMS_PER_OPERATOR: '1' });
    try {
      const operator = await mcpOperator(small.url);
      const channel = await opened(await openEventStream(small.url, operator.key, '?session=one'));
      const refused = await openEndpointStream(small.url, operator.key);
      expect([refused.status, refused.body, refused.headers.get('retry-after')]).toEqual([429, serviceError('MCP_SESSION_LIMIT_EXCEEDED'), '5']);
      channel.close();
      let endpoint: EventStream | undefined;
      await until(async () => {
        const candidate = await openEndpointStream(small.url, operator.key);
        if (candidate.status === 200) endpoint = candidate;
        return endpoint !== undefined;
      }, 'the slot to be free');
      await opened(endpoint!);
      expect((await openEventStream(small.url, operator.key, '?session=two')).status).toBe(429);
      endpoint!.close();
    } finally {
      await small.close();
    }
  });
});

describe('notifications/tools/list_changed (capability tools.listChanged)', () => {
  it('the SDK client hears exposing, renaming and hiding a workflow, and nothing for unrelated changes', async () => {
    const operator = await mcpOperator(app.url);
    const other = await mcpOperator(app.url);
    let heard = 0;
    const { client, transport } = sdkClient(app.url, operator.key, { listChanged: () => (heard += 1) });
    await client.connect(transport);
    try {
      await until(async () => (await streamSlotsHeld(app.deps.db, operator.operatorId)) === 1, 'the SDK’s GET stream');
      const created = await createWorkflow(app.url, operator.accessToken, tool('Bonus check'));
      await until(() => heard === 1, 'list_changed for the new tool');
      expect((await client.listTools()).tools.map((listed) => listed.name)).toEqual([created.mcp_tool_name]);

      const renamed = await put(operator, created.id, { ...tool('Bonus audit') });
      expect(renamed.status).toBe(200);
      await until(() => heard === 2, 'list_changed for the rename');
      expect((await client.listTools()).tools.map((listed) => [listed.name, listed.title])).toEqual([[renamed.body.data.mcp_tool_name, 'Bonus audit']]);

      expect((await put(operator, created.id, { ...tool('Bonus audit') })).status).toBe(200);
      await createWorkflow(app.url, operator.accessToken, tool('Not a tool', { mcp_exposed: false }));
      await createWorkflow(app.url, other.accessToken, tool('Someone else’s tool'));
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(heard).toBe(2);

      expect((await put(operator, created.id, { ...tool('Bonus audit', { mcp_exposed: false }) })).status).toBe(200);
      await until(() => heard === 3, 'list_changed for hiding the tool');
      expect((await client.listTools()).tools).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('reaches the endpoint stream and the spec’s channel on every instance, whoever changed the workflow', async () => {
    const operator = await mcpOperator(app.url);
    const created = await createWorkflow(app.url, operator.accessToken, tool('Deposit check'));
    const endpoint = await opened(await openEndpointStream(peer.url, operator.key, SSE, `/mcp-server/${operator.operatorId}`));
    const channel = await opened(await openEventStream(app.url, operator.key, '?session=lists'));
    try {
      expect((await http(`${peer.url}/workflows-api/workflows/${created.id}`, { method: 'DELETE', token: operator.key })).status).toBe(200);
      await endpoint.waitFor(() => endpoint.events.length === 1);
      await channel.waitFor(() => channel.events.length === 1);
      expect([framesOf(endpoint), framesOf(channel)]).toEqual([[LIST_CHANGED], [LIST_CHANGED]]);
      expect(endpoint.events[0]!.event).toBe('message');

      const direct = await createWorkflow(app.url, operator.accessToken, tool('Withdrawal check'));
      await endpoint.waitFor(() => endpoint.events.length === 2);
      await app.deps.db('automations').where({ operator_id: operator.operatorId, id: direct.id }).update({ active: false });
      await endpoint.waitFor(() => endpoint.events.length === 3);
      expect(framesOf(endpoint)).toEqual([LIST_CHANGED, LIST_CHANGED, LIST_CHANGED]);
    } finally {
      endpoint.close();
      channel.close();
    }
  });
});
