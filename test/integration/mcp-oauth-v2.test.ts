import type { TestApp } from '../helpers/app';
import { signupOperator, type TestOperator } from '../helpers/identity';
import { http } from '../helpers/http';
import { createWorkflow, rpc, toolAutomation } from '../helpers/mcp';
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
  it('meets the 401, registers, authorizes with PKCE, checks iss on the callback, lists and calls tools, refreshes, and is refused once revoked', async () => {
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

    // The access token expires: the v2 client refreshes on the 401 (a new pair: rotation) and the call goes through.
    const before = host.saved!;
    await app.deps
      .db('mcp_oauth_tokens')
      .where({ kind: 'access' })
      .whereIn('grant_id', app.deps.db('mcp_oauth_grants').select('id').where({ operator_id: owner.operatorId }))
      .update({ expires_at: app.deps.db.raw("now() - interval '1 second'") });
    expect((await client.callTool({ name: toolName, arguments: { playerId: 'p-v2-again' } })).isError).toBeFalsy();
    expect(host.saved!.access_token).not.toBe(before.access_token);
    expect(host.saved!.refresh_token).not.toBe(before.refresh_token);

    // Revoked (RFC 7009, as a host sends it): the access token is refused with the challenge, the client's next call fails.
    const revoked = await fetch(`${app.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: host.saved!.refresh_token!, client_id: host.client!.client_id }),
    });
    expect(revoked.status).toBe(200);
    const refused = await http(`${app.url}/mcp-server`, { token: host.saved!.access_token, body: rpc('tools/list') });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    // (A call, not tools/list: the v2 client answers that from its cache for the list's ttlMs.)
    await expect(client.callTool({ name: toolName, arguments: { playerId: 'p-v2-revoked' } })).rejects.toThrow();
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
