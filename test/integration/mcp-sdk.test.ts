import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestApp, type TestApp } from '../helpers/app';
import { kycToolFixture, mcpOperator, type McpOperator } from '../helpers/mcp';
import type { TestProvider } from '../helpers/providerServer';

let app: TestApp;
let provider: TestProvider;
let alice: McpOperator;
let toolName: string;

beforeAll(async () => {
  app = await startTestApp();
  ({ provider, operator: alice, toolName } = await kycToolFixture(app.url));
});
afterAll(async () => {
  await app.close();
  await provider.close();
});

function sdkClient(key: string, path = '/mcp-server') {
  const client = new Client({ name: 'sdk-e2e', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${app.url}${path}`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
  return { client, transport };
}

describe('the official MCP SDK client (StreamableHTTPClientTransport)', () => {
  it('connects, lists tools and calls one', async () => {
    const { client, transport } = sdkClient(alice.key);
    try {
      await client.connect(transport);
      expect(client.getServerVersion()).toEqual({ name: 'operator-platform', version: '0.1.0' });
      // The SDK asks for 2025-11-25, the revision of tasks, and gets it with the tasks capability (mcp-tasks.test.ts).
      expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: true }, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } });
      expect(transport.sessionId).toMatch(/^mcps_/);

      const { tools } = await client.listTools();
      expect(tools).toEqual([
        {
          name: toolName,
          title: 'KYC check',
          description: 'KYC check (test tool)',
          inputSchema: { type: 'object', properties: { playerId: { type: 'string' } }, required: ['playerId'] },
          outputSchema: expect.objectContaining({ type: 'object', required: ['status', 'headers', 'body'] }),
          annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
          execution: { taskSupport: 'optional' },
        },
      ]);

      const result = await client.callTool({ name: toolName, arguments: { playerId: 'p-7' } });
      expect(result.isError).toBe(false);
      expect(result._meta).toEqual({ execution_id: expect.stringMatching(/^run_/), duration_ms: expect.any(Number) });
      const content = result.content as Array<{ type: string; text: string }>;
      expect(JSON.parse(content[0]!.text)).toMatchObject({ status: 200, body: { checked: 'p-7' } });
      expect(result.structuredContent).toEqual(JSON.parse(content[0]!.text));

      const missing = await client.callTool({ name: toolName, arguments: {} });
      expect(missing.isError).toBe(true);
      expect((missing.content as Array<{ text: string }>)[0]!.text).toMatch(/^MISSING_TRIGGER_FIELD/);

      await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
      await expect(client.ping()).resolves.toEqual({});
    } finally {
      await client.close();
    }
  });

  it('works on the legacy path with the operator id', async () => {
    const { client, transport } = sdkClient(alice.key, `/functions/v1/mcp-server/${alice.operatorId}`);
    try {
      await client.connect(transport);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([toolName]);
    } finally {
      await client.close();
    }
  });

  it('fails to connect with a key that is not MCP-enabled, reporting the HTTP status', async () => {
    const other = await mcpOperator(app.url);
    await fetch(`${app.url}/api-keys/${other.keyId}/mcp`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${other.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mcp_enabled: false }),
    });
    const { client, transport } = sdkClient(other.key);
    await expect(client.connect(transport)).rejects.toThrow(/403|MCP_NOT_ENABLED/);
    await client.close();
  });
});
