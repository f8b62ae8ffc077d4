import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { kycToolFixture, type McpOperator } from '../helpers/mcp';
import type { TestProvider } from '../helpers/providerServer';

const run = promisify(execFile);

/** The MCP Inspector's launcher (`npx @modelcontextprotocol/inspector`), run in its CLI mode. */
const INSPECTOR = require.resolve('@modelcontextprotocol/inspector/cli/build/cli.js');

let app: TestApp;
let provider: TestProvider;
let alice: McpOperator;
let toolName: string;

beforeAll(async () => {
  app = await startTestApp();
  ({ provider, operator: alice, toolName } = await kycToolFixture(app.url));
});
afterAll(async () => {
  await Promise.all([app.close(), provider.close()]);
});

/** `mcp-inspector --cli <url> --transport http --header "Authorization: Bearer …" --method …`; its stdout is the JSON result. */
async function inspector(key: string, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [INSPECTOR, '--cli', `${app.url}/mcp-server`, '--transport', 'http', '--header', `Authorization: Bearer ${key}`, ...args], {
    timeout: 45_000,
    env: { ...process.env, NODE_NO_WARNINGS: '1' },
  });
}

describe('the MCP Inspector in CLI mode (@modelcontextprotocol/inspector --cli --transport http)', () => {
  it('fails to connect with a key that is not MCP-enabled', async () => {
    await http(`${app.url}/api-keys/${alice.keyId}/mcp`, { method: 'PATCH', token: alice.accessToken, body: { mcp_enabled: false } });
    try {
      await expect(inspector(alice.key, '--method', 'tools/list')).rejects.toMatchObject({ code: 1, stdout: expect.not.stringContaining(toolName) });
    } finally {
      await http(`${app.url}/api-keys/${alice.keyId}/mcp`, { method: 'PATCH', token: alice.accessToken, body: { mcp_enabled: true } });
    }
  });

  it('lists the tools', async () => {
    const { stdout } = await inspector(alice.key, '--method', 'tools/list');
    const { tools } = JSON.parse(stdout) as { tools: Array<Record<string, unknown>> };
    expect(tools).toEqual([
      expect.objectContaining({
        name: toolName,
        title: 'KYC check',
        inputSchema: { type: 'object', properties: { playerId: { type: 'string' } }, required: ['playerId'] },
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
      }),
    ]);
  });

  it('calls a tool: the workflow runs through Temporal with source mcp', async () => {
    const { stdout } = await inspector(alice.key, '--method', 'tools/call', '--tool-name', toolName, '--tool-arg', 'playerId=p-inspector');
    const result = JSON.parse(stdout) as { isError: boolean; structuredContent: Record<string, unknown>; _meta: { execution_id: string } };
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({ status: 200, body: { checked: 'p-inspector' } });
    const stored = await http(`${app.url}/workflows-api/runs/${result._meta.execution_id}`, { token: alice.key });
    expect(stored.body.data).toMatchObject({ source: 'mcp', status: 'completed', input: { playerId: 'p-inspector' } });
    expect(provider.requests.map((request) => request.json)).toEqual([{ playerId: 'p-inspector' }]);
  });
});
