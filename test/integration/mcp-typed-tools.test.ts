import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { IGAMING_TEMPLATE_ID } from '../../core/templates';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createWorkflow, mcpOperator, type McpOperator } from '../helpers/mcp';
import { sdkClient } from '../helpers/mcpClients';
import { startProvider, type TestProvider } from '../helpers/providerServer';

let app: TestApp;
let provider: TestProvider;
let alice: McpOperator;
let client: Client;
const names: Record<string, string> = {};

const trigger = {
  id: 'start',
  type: 'trigger.manual',
  params: { inputSchema: { type: 'object', properties: { playerId: { type: 'string' }, vip: { type: 'boolean' } }, required: ['playerId'] } },
};
const upsert = {
  id: 'upsert',
  type: 'action.upsert_entity',
  params: { entityType: 'player', externalId: '{{ trigger.playerId }}', data: { country: 'MT', status: 'active' } },
};
const store = { id: 'store', type: 'action.set_state', params: { externalId: '{{ trigger.playerId }}', key: 'risk_score', value: 80 } };
const linear = (ids: string[]) => ids.slice(1).map((id, index) => ({ from: ids[index]!, to: id }));

beforeAll(async () => {
  app = await startTestApp();
  provider = await startProvider((request) => ({ status: 200, body: { player: request.query.get('id'), limits: [100, 200] } }));
  alice = await mcpOperator(app.url);
  expect((await http(`${app.url}/operator-data-api/settings`, { method: 'PUT', token: alice.key, body: { templateId: IGAMING_TEMPLATE_ID } })).status).toBe(
    200,
  );
  const workflows = {
    store: { name: 'Store risk', nodes: [trigger, upsert, store], edges: linear(['start', 'upsert', 'store']) },
    lookup: {
      name: 'Look up limits',
      nodes: [trigger, { id: 'get', type: 'action.http_request', params: { method: 'GET', url: `${provider.url}/limits?id={{ trigger.playerId }}` } }],
      edges: linear(['start', 'get']),
    },
    branch: {
      name: 'Flag VIPs',
      nodes: [trigger, upsert, { id: 'vip', type: 'condition', params: { expression: 'trigger.vip = true' } }, store],
      edges: [...linear(['start', 'upsert', 'vip']), { from: 'vip', to: 'store', when: true }],
    },
    maybe: {
      name: 'Maybe store',
      nodes: [trigger, { id: 'vip', type: 'condition', params: { expression: 'trigger.vip = true' } }, upsert],
      edges: [
        { from: 'start', to: 'vip' },
        { from: 'vip', to: 'upsert', when: true },
      ],
    },
  };
  for (const [key, body] of Object.entries(workflows)) {
    names[key] = (
      await createWorkflow(app.url, alice.accessToken, { ...body, description: `${body.name} (test tool)`, active: true, mcp_exposed: true })
    ).mcp_tool_name;
  }
  const sdk = sdkClient(app.url, alice.key);
  await sdk.client.connect(sdk.transport);
  client = sdk.client;
});
afterAll(async () => {
  await client.close();
  await Promise.all([app.close(), provider.close()]);
});

async function toolNamed(key: string) {
  const { tools } = await client.listTools();
  const found = tools.find((tool) => tool.name === names[key]);
  if (!found) throw new Error(`tool ${key} not listed`);
  return found;
}

/** Validates with both dialects an MCP client may use (draft-07, as the SDK, and 2020-12). */
function expectValid(schema: unknown, value: unknown) {
  for (const ajv of [new Ajv({ strict: true }), new Ajv2020({ strict: true })]) {
    const validate = ajv.compile(schema as object);
    expect({ valid: validate(value), errors: validate.errors ?? null }).toEqual({ valid: true, errors: null });
  }
}

async function callAndCheck(key: string, args: Record<string, unknown>) {
  const tool = await toolNamed(key);
  const result = await client.callTool({ name: tool.name, arguments: args });
  expect(result.isError).toBe(false);
  const text = (result.content as Array<{ type: string; text: string }>)[0]!.text;
  expect(result.structuredContent).toEqual(JSON.parse(text));
  expectValid(tool.outputSchema, result.structuredContent);
  const run = await http(`${app.url}/workflows-api/runs/${(result._meta as { execution_id: string }).execution_id}`, { token: alice.key });
  expect(run.body.data).toMatchObject({ source: 'mcp', status: 'completed', output: result.structuredContent });
  return result.structuredContent as Record<string, unknown>;
}

describe('typed tool results (MCP 2025-06-18 outputSchema and structuredContent)', () => {
  it('a tool whose last action always runs declares its output, and its structuredContent validates', async () => {
    expect((await toolNamed('store')).outputSchema).toEqual({
      type: 'object',
      properties: { externalId: { type: 'string' }, key: { type: 'string' }, value: {} },
      required: ['externalId', 'key'],
    });
    expect(await callAndCheck('store', { playerId: 'p-typed' })).toEqual({ externalId: 'p-typed', key: 'risk_score', value: 80 });
    expect(await callAndCheck('lookup', { playerId: 'p-typed' })).toMatchObject({ status: 200, body: { player: 'p-typed', limits: [100, 200] } });
  });

  it('a tool whose output depends on a branch declares an anyOf that either branch’s output validates', async () => {
    const schema = (await toolNamed('branch')).outputSchema as { type: string; anyOf: unknown[] };
    expect(schema.type).toBe('object');
    expect(schema.anyOf).toHaveLength(2);
    expect(await callAndCheck('branch', { playerId: 'p-vip', vip: true })).toEqual({ externalId: 'p-vip', key: 'risk_score', value: 80 });
    expect(await callAndCheck('branch', { playerId: 'p-plain', vip: false })).toEqual({ id: expect.any(String), externalId: 'p-plain', action: 'created' });
  });

  it('a tool that may return its arguments declares no outputSchema and returns text only', async () => {
    const tool = await toolNamed('maybe');
    expect(tool).not.toHaveProperty('outputSchema');
    const result = await client.callTool({ name: tool.name, arguments: { playerId: 'p-none', vip: false } });
    expect(result).not.toHaveProperty('structuredContent');
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toEqual({ playerId: 'p-none', vip: false });
  });
});

describe('tool annotations follow the actions a workflow can run', () => {
  it('an http GET is read-only and open-world; platform data writes are closed-world and not idempotent', async () => {
    expect((await toolNamed('lookup')).annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true });
    expect((await toolNamed('store')).annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false });
    expect((await toolNamed('maybe')).title).toBe('Maybe store');
  });
});
