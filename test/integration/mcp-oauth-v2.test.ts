import type { TestApp } from '../helpers/app';
import { signupOperator, type TestOperator } from '../helpers/identity';
import { createWorkflow, toolAutomation } from '../helpers/mcp';
import { approvedRedirect, startOAuthApp, TestOAuthProvider } from '../helpers/mcpOAuth';

let app: TestApp;
let owner: TestOperator;
let toolName: string;

beforeAll(async () => {
  app = await startOAuthApp();
  owner = await signupOperator(app.url, 'V2 Casino');
  toolName = (await createWorkflow(app.url, owner.accessToken, toolAutomation('V2 lookup', []))).mcp_tool_name;
}, 60_000);
afterAll(async () => {
  await app?.close();
});

/** The official SDK v2 client (`@modelcontextprotocol/client`), 2026-07-28 by negotiation, with its own OAuth support. */
describe('the official TypeScript SDK v2 client with OAuth', () => {
  it('meets the 401, registers, authorizes with PKCE, checks iss on the callback, then lists and calls tools', async () => {
    const { Client, StreamableHTTPClientTransport, UnauthorizedError } = await import('@modelcontextprotocol/client');
    const host = new TestOAuthProvider({ name: 'V2 host' });
    const transport = () => new StreamableHTTPClientTransport(new URL(`${app.url}/mcp-server`), { authProvider: host as never });
    const first = transport();
    await expect(new Client({ name: 'v2-host', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(host.authorizationUrl?.searchParams.get('resource')).toBe(`${app.url}/mcp-server`);
    const callback = await approvedRedirect(app, owner.accessToken, host.authorizationUrl!);
    await first.finishAuth(callback.searchParams);
    expect(host.saved?.access_token).toMatch(/^mcpat_/);

    const client = new Client({ name: 'v2-host', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(transport());
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([toolName]);
    expect((await client.callTool({ name: toolName, arguments: { playerId: 'p-v2' } })).isError).toBeFalsy();
    await client.close();
  }, 60_000);

  it('refuses a callback whose iss is not the issuer it discovered (RFC 9207 mix-up defence)', async () => {
    const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const host = new TestOAuthProvider({ name: 'V2 host (mix-up)' });
    const first = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp-server`), { authProvider: host as never });
    await expect(new Client({ name: 'v2-host', version: '1.0.0' }).connect(first)).rejects.toThrow();
    const callback = await approvedRedirect(app, owner.accessToken, host.authorizationUrl!);
    callback.searchParams.set('iss', 'https://attacker.example');
    await expect(first.finishAuth(callback.searchParams)).rejects.toThrow();
    expect(host.saved).toBeUndefined();
  }, 60_000);
});
