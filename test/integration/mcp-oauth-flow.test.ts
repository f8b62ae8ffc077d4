import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { signupOperator, type TestOperator } from '../helpers/identity';
import { createWorkflow, rpc, toolAutomation } from '../helpers/mcp';
import { approveAs, startOAuthApp, TestOAuthProvider } from '../helpers/mcpOAuth';
import { startProvider, type TestProvider } from '../helpers/providerServer';

let app: TestApp;
let provider: TestProvider;
let owner: TestOperator;
const tools = { read: '', write: '' };

beforeAll(async () => {
  app = await startOAuthApp();
  provider = await startProvider((request) => ({ status: 200, body: { path: request.path } }));
  owner = await signupOperator(app.url, 'OAuth Casino');
  tools.read = (await createWorkflow(app.url, owner.accessToken, toolAutomation('Look up', []))).mcp_tool_name;
  const post = { id: 'post', type: 'action.http_request', params: { method: 'POST', url: `${provider.url}/effect` } };
  tools.write = (await createWorkflow(app.url, owner.accessToken, toolAutomation('Credit bonus', [post]))).mcp_tool_name;
}, 120_000);
afterAll(async () => {
  await Promise.all([app?.close(), provider?.close()]);
});

const mcpUrl = () => new URL(`${app.url}/mcp-server`);

/** The SDK's own first connection: a 401, discovery, registration, PKCE, and the member sent to consent. */
async function authorizeWithSdk(host: TestOAuthProvider): Promise<void> {
  const first = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: host });
  await expect(new Client({ name: 'oauth-host', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(host.authorizationUrl).toBeDefined();
  const code = await approveAs(app, owner.accessToken, host.authorizationUrl!);
  await first.finishAuth(code);
}

async function connected(host: TestOAuthProvider): Promise<Client> {
  const client = new Client({ name: 'oauth-host', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: host }));
  return client;
}

describe('the official TypeScript SDK v1 client with OAuth (Dynamic Client Registration)', () => {
  it('discovers from the 401, registers, authorizes with PKCE, lists and calls tools, refreshes, and is refused once revoked', async () => {
    const bare = await http(`${app.url}/mcp-server`, { body: rpc('tools/list') });
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${app.url}/.well-known/oauth-protected-resource/mcp-server"`);

    const host = new TestOAuthProvider({ name: 'DCR host' });
    await authorizeWithSdk(host);
    const asked = host.authorizationUrl!;
    expect(host.client?.client_id).toMatch(/^mcpc_[0-9a-f]{32}$/);
    expect(asked.origin + asked.pathname).toBe(`${app.url}/oauth/authorize`);
    expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
    expect(asked.searchParams.get('resource')).toBe(`${app.url}/mcp-server`);
    expect(asked.searchParams.get('scope')).toBe('mcp:tools.read mcp:tools.write');
    expect(host.saved?.access_token).toMatch(/^mcpat_/);
    expect(host.saved?.refresh_token).toMatch(/^mcprt_/);
    expect(host.saved?.scope).toBe('mcp:tools.read mcp:tools.write');

    const client = await connected(host);
    const listed = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(listed).toEqual([tools.read, tools.write].sort());
    const read = await client.callTool({ name: tools.read, arguments: { playerId: 'p-1' } });
    expect(read.isError).toBeFalsy();
    const write = await client.callTool({ name: tools.write, arguments: { playerId: 'p-1' } });
    expect(write.isError).toBeFalsy();
    expect(provider.requests.some((request) => request.path === '/effect')).toBe(true);

    // The access token expires: the SDK refreshes on the 401 (rotation: a new pair) and the call goes through.
    const before = host.saved!;
    await app.deps
      .db('mcp_oauth_tokens')
      .where({ kind: 'access' })
      .whereIn('grant_id', app.deps.db('mcp_oauth_grants').select('id').where({ operator_id: owner.operatorId }))
      .update({ expires_at: app.deps.db.raw("now() - interval '1 second'") });
    const again = await client.callTool({ name: tools.read, arguments: { playerId: 'p-2' } });
    expect(again.isError).toBeFalsy();
    expect(host.saved!.access_token).not.toBe(before.access_token);
    expect(host.saved!.refresh_token).not.toBe(before.refresh_token);

    const hosts = await http(`${app.url}/oauth/hosts`, { token: owner.accessToken });
    expect(hosts.body.data).toEqual([
      expect.objectContaining({ client_name: 'DCR host', redirect_host: '127.0.0.1:33418', revoked_at: null, last_used_at: expect.any(String) }),
    ]);

    // RFC 7009, form-encoded as hosts send it: the grant ends, the access token is refused with the challenge.
    const revoked = await fetch(`${app.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: host.saved!.refresh_token!, client_id: host.client!.client_id }),
    });
    expect(revoked.status).toBe(200);
    const refused = await http(`${app.url}/mcp-server`, { token: host.saved!.access_token, body: rpc('tools/list') });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    await expect(client.listTools()).rejects.toThrow();
    await client.close();

    const trail = await app.deps.db('audit_events').where({ operator_id: owner.operatorId, target_type: 'mcp_grant' }).orderBy('occurred_at').pluck('action');
    expect(trail).toEqual(['mcp_grant.created', 'mcp_grant.revoked']);
  }, 120_000);
});

describe('the metadata documents', () => {
  it('serves protected-resource metadata at both forms and authorization-server metadata at both discovery paths', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp-server']) {
      const response = await http(`${app.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        resource: `${app.url}/mcp-server`,
        authorization_servers: [app.url],
        scopes_supported: ['mcp:tools.read', 'mcp:tools.write'],
      });
    }
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const response = await http(`${app.url}${path}`);
      expect(response.body).toMatchObject({
        issuer: app.url,
        authorization_endpoint: `${app.url}/oauth/authorize`,
        token_endpoint: `${app.url}/oauth/token`,
        registration_endpoint: `${app.url}/oauth/register`,
        revocation_endpoint: `${app.url}/oauth/revoke`,
        code_challenge_methods_supported: ['S256'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        response_types_supported: ['code'],
        token_endpoint_auth_methods_supported: ['none'],
        client_id_metadata_document_supported: true,
        authorization_response_iss_parameter_supported: true,
      });
    }
  });
});
