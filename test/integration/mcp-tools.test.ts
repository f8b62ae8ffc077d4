import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createApiKey } from '../helpers/identity';
import { createWorkflow, mcpOperator, mcpPost, rpc, setMcp, toolAutomation, type McpOperator } from '../helpers/mcp';
import { startProvider, type TestProvider } from '../helpers/providerServer';

let app: TestApp;
let provider: TestProvider;
let alice: McpOperator;
let bob: McpOperator;
const wf: Record<string, { id: string; mcp_tool_name: string }> = {};

const kycCall = (url: string) => ({
  id: 'kyc',
  type: 'action.http_request',
  params: { method: 'POST', url: `${url}/kyc`, body: { playerId: '{{ trigger.playerId }}' } },
});

beforeAll(async () => {
  app = await startTestApp();
  provider = await startProvider(() => ({ status: 200, body: { status: 'approved' } }));
  [alice, bob] = await Promise.all([mcpOperator(app.url), mcpOperator(app.url)]);
  wf.kyc = await createWorkflow(
    app.url,
    alice.accessToken,
    toolAutomation('KYC check', [kycCall(provider.url)], { description: 'Checks a player’s KYC status' }),
  );
  wf.bonus = await createWorkflow(app.url, alice.accessToken, toolAutomation('Bonus grant', [kycCall(provider.url)]));
  wf.hidden = await createWorkflow(app.url, alice.accessToken, toolAutomation('Internal only', [kycCall(provider.url)], { mcp_exposed: false }));
  wf.inactive = await createWorkflow(app.url, alice.accessToken, toolAutomation('Paused tool', [kycCall(provider.url)], { active: false }));
  wf.bob = await createWorkflow(app.url, bob.accessToken, toolAutomation('Bob tool', [kycCall(provider.url)]));
});
afterAll(async () => {
  await app.close();
  await provider.close();
});

beforeEach(() => {
  provider.requests.length = 0;
  provider.handle(() => ({ status: 200, body: { status: 'approved' } }));
});

const kycTool = () => wf.kyc!.mcp_tool_name;
const playerSchema = { type: 'object', properties: { playerId: { type: 'string' } }, required: ['playerId'] };
const listTools = async (key: string) => {
  const request = rpc('tools/list');
  const response = await mcpPost(app.url, key, request);
  expect([response.status, response.body.id]).toEqual([200, request.id]);
  return (response.body.result.tools as Array<{ name: string }>).sort((a, b) => a.name.localeCompare(b.name));
};
const callTool = (key: string, params: Record<string, unknown>, headers?: Record<string, string>) =>
  mcpPost(app.url, key, rpc('tools/call', params), { headers });
const invalidParams = (response: { body: any }, message: string) => expect(response.body.error).toEqual(expect.objectContaining({ code: -32602, message }));

describe('tools/list (spec 2.12, 4.6)', () => {
  it('lists the active mcp_exposed workflows with name, title, description, inputSchema, outputSchema and annotations', async () => {
    const httpOutput = {
      type: 'object',
      properties: { status: { type: 'integer' }, headers: { type: 'object', additionalProperties: { type: 'string' } }, body: {} },
      required: ['status', 'headers', 'body'],
    };
    const postHints = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
    expect(await listTools(alice.key)).toEqual([
      {
        name: wf.bonus!.mcp_tool_name,
        title: 'Bonus grant',
        description: 'Bonus grant (test tool)',
        inputSchema: playerSchema,
        outputSchema: httpOutput,
        annotations: postHints,
      },
      {
        name: wf.kyc!.mcp_tool_name,
        title: 'KYC check',
        description: 'Checks a player’s KYC status',
        inputSchema: playerSchema,
        outputSchema: httpOutput,
        annotations: postHints,
      },
    ]);
    expect(wf.kyc!.mcp_tool_name).toMatch(/^kyc.check$/);
  });

  it('applies the key’s allowlist: an array lists only those, an empty array none, null all', async () => {
    const { id, key } = await createApiKey(app.url, alice, 'allowlisted');
    await setMcp(app.url, alice, id, { mcp_enabled: true, mcp_workflow_allowlist: [wf.bonus!.id, wf.hidden!.id] });
    expect((await listTools(key)).map((tool) => tool.name)).toEqual([wf.bonus!.mcp_tool_name]);
    await setMcp(app.url, alice, id, { mcp_workflow_allowlist: [] });
    expect(await listTools(key)).toEqual([]);
    await setMcp(app.url, alice, id, { mcp_workflow_allowlist: null });
    expect((await listTools(key)).map((tool) => tool.name)).toEqual([wf.bonus!.mcp_tool_name, wf.kyc!.mcp_tool_name]);
  });

  it('shows an operator only its own workflows', async () => {
    expect((await listTools(bob.key)).map((tool) => tool.name)).toEqual([wf.bob!.mcp_tool_name]);
  });
});

describe('PATCH /api-keys/:id/mcp allowlist', () => {
  it('refuses workflow ids that are not the operator’s (400, key management text error) and stores nothing', async () => {
    const response = await http(`${app.url}/api-keys/${alice.keyId}/mcp`, {
      method: 'PATCH',
      token: alice.accessToken,
      body: { mcp_workflow_allowlist: [wf.kyc!.id, wf.bob!.id, 'wf_nope'] },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, error: `Unknown workflow ids in mcp_workflow_allowlist: ${wf.bob!.id}, wf_nope` });
    const row = await app.deps.db('api_keys').where({ id: alice.keyId }).first();
    expect(row.mcp_automation_allowlist).toBeNull();
  });
});

describe('tools/call (spec 4.6, 7.6)', () => {
  it('runs the workflow through Temporal with source mcp and returns its output, execution id and duration', async () => {
    const request = rpc('tools/call', { name: kycTool(), arguments: { playerId: 'p-42' } });
    const response = await mcpPost(app.url, alice.key, request);
    expect(response.status).toBe(200);
    const result = response.body.result;
    expect(response.body.id).toBe(request.id);
    expect(result.isError).toBe(false);
    expect(result.content).toHaveLength(1);
    expect(result.content[0].type).toBe('text');
    expect(JSON.parse(result.content[0].text)).toMatchObject({ status: 200, body: { status: 'approved' } });
    expect(result._meta).toEqual({ execution_id: expect.stringMatching(/^run_/), duration_ms: expect.any(Number) });
    expect(provider.requests.map((received) => [received.method, received.path, received.json])).toEqual([['POST', '/kyc', { playerId: 'p-42' }]]);
    const run = await http(`${app.url}/workflows-api/runs/${result._meta.execution_id}`, { token: alice.accessToken });
    expect(run.status).toBe(200);
    expect(run.body.data).toMatchObject({
      id: result._meta.execution_id,
      workflowId: wf.kyc!.id,
      source: 'mcp',
      status: 'completed',
      input: { playerId: 'p-42' },
    });
  });

  it('answers on the legacy path and under /functions/v1 too', async () => {
    for (const path of [`/mcp-server/${alice.operatorId}`, '/functions/v1/mcp-server']) {
      const response = await mcpPost(app.url, alice.key, rpc('tools/call', { name: kycTool(), arguments: { playerId: 'p-1' } }), { path });
      expect(response.body.result.isError).toBe(false);
    }
  });

  it('a missing required field is an isError result MISSING_TRIGGER_FIELD; the run is recorded and no node runs', async () => {
    const response = await callTool(alice.key, { name: kycTool(), arguments: {} });
    expect(response.status).toBe(200);
    const result = response.body.result;
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: expect.stringMatching(/^MISSING_TRIGGER_FIELD: .*playerId/) }]);
    expect(provider.requests).toEqual([]);
    const run = await http(`${app.url}/workflows-api/runs/${result._meta.execution_id}`, { token: alice.accessToken });
    expect(run.body.data).toMatchObject({ source: 'mcp', status: 'failed', error: { code: 'MISSING_TRIGGER_FIELD' } });
    expect(run.body.data.nodes.filter((node: { id: string; status: string }) => node.status === 'completed' && node.id !== 'start')).toEqual([]);
  });

  it('arguments omitted count as {} (the same MISSING_TRIGGER_FIELD)', async () => {
    const response = await callTool(alice.key, { name: kycTool() });
    expect(response.body.result.content[0].text).toMatch(/^MISSING_TRIGGER_FIELD/);
  });

  it('-32602 for arguments that are not an object or have a wrongly typed field; nothing runs', async () => {
    invalidParams(await callTool(alice.key, { name: kycTool(), arguments: ['p-1'] }), 'Invalid arguments: arguments must be an object');
    invalidParams(await callTool(alice.key, { name: kycTool(), arguments: null }), 'Invalid arguments: arguments must be an object');
    const typed = await callTool(alice.key, { name: kycTool(), arguments: { playerId: 42 } });
    expect(typed.status).toBe(200);
    expect(typed.body.error).toEqual({
      code: -32602,
      message: 'Invalid arguments: playerId must be of type string',
      data: { problems: ['playerId must be of type string'] },
    });
    expect(provider.requests).toEqual([]);
  });

  it('-32602 Unknown tool for a tool not listed for this key: unknown, not exposed, inactive, outside the allowlist, another operator’s', async () => {
    for (const name of ['no-such-tool', wf.hidden!.mcp_tool_name, wf.inactive!.mcp_tool_name, wf.bob!.mcp_tool_name]) {
      const response = await callTool(alice.key, { name, arguments: { playerId: 'p-1' } });
      expect(response.status).toBe(200);
      invalidParams(response, `Unknown tool: ${name}`);
    }
    const { id, key } = await createApiKey(app.url, alice, 'bonus only');
    await setMcp(app.url, alice, id, { mcp_enabled: true, mcp_workflow_allowlist: [wf.bonus!.id] });
    invalidParams(await callTool(key, { name: kycTool(), arguments: { playerId: 'p-1' } }), `Unknown tool: ${kycTool()}`);
    expect((await callTool(key, { name: wf.bonus!.mcp_tool_name, arguments: { playerId: 'p-1' } })).body.result.isError).toBe(false);
    invalidParams(await callTool(bob.key, { name: kycTool(), arguments: { playerId: 'p-1' } }), `Unknown tool: ${kycTool()}`);
    expect(provider.requests).toHaveLength(1);
  });

  it('a failing node is an isError result carrying the node’s code', async () => {
    provider.handle(() => ({ status: 404, body: { error: 'unknown player' } }));
    const response = await callTool(alice.key, { name: kycTool(), arguments: { playerId: 'p-404' } });
    expect(response.status).toBe(200);
    expect(response.body.result.isError).toBe(true);
    expect(response.body.result.content[0].text).toMatch(/^HTTP_404: /);
    expect(response.body.result._meta.execution_id).toMatch(/^run_/);
  });

  it('QUOTA_EXCEEDED is an isError result and no node runs', async () => {
    const operator = await mcpOperator(app.url);
    const quotaTool = await createWorkflow(app.url, operator.accessToken, toolAutomation('Quota tool', [kycCall(provider.url)]));
    await app.deps.db('operator_quotas').insert({ operator_id: operator.operatorId, actions_per_month: 0 });
    const response = await callTool(operator.key, { name: quotaTool.mcp_tool_name, arguments: { playerId: 'p-1' } });
    expect(response.status).toBe(200);
    expect(response.body.result.isError).toBe(true);
    expect(response.body.result.content[0].text).toMatch(/^QUOTA_EXCEEDED: /);
    expect(provider.requests).toEqual([]);
  });
});
