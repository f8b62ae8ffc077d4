import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { signupOperator, type TestOperator } from '../helpers/identity';
import { createWorkflow, toolAutomation } from '../helpers/mcp';
import { approveAs, consentRequestOf, startMetadataServer, startOAuthApp, TestOAuthProvider } from '../helpers/mcpOAuth';
import { pkcePair } from '../helpers/mcpOAuthRaw';

const REDIRECT = 'http://127.0.0.1:33419/callback';
let app: TestApp;
let owner: TestOperator;
let metadata: Awaited<ReturnType<typeof startMetadataServer>>;
let toolName: string;
let document: (url: string) => unknown = (url) => ({ client_id: url, client_name: 'CIMD host', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });

beforeAll(async () => {
  metadata = await startMetadataServer((url) => document(url));
  app = await startOAuthApp({ OAUTH_CIMD_CA_FILE: metadata.caFile });
  owner = await signupOperator(app.url, 'CIMD Casino');
  toolName = (await createWorkflow(app.url, owner.accessToken, toolAutomation('CIMD read', []))).mcp_tool_name;
}, 60_000);
afterAll(async () => {
  await Promise.all([app?.close(), metadata?.close()]);
});

describe('the official TypeScript SDK v1 client with a Client ID Metadata Document', () => {
  it('uses its https URL as client_id; the server fetches it once (cached), shows its name, and the flow completes', async () => {
    const host = new TestOAuthProvider({ name: 'CIMD host', redirectUrl: REDIRECT, clientMetadataUrl: metadata.url });
    const first = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp-server`), { authProvider: host });
    await expect(new Client({ name: 'cimd-host', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(host.client?.client_id).toBe(metadata.url);
    expect(host.authorizationUrl?.searchParams.get('client_id')).toBe(metadata.url);

    const requestId = await consentRequestOf(host.authorizationUrl!);
    const shown = await http(`${app.url}/oauth/requests/${requestId}`, { token: owner.accessToken });
    expect(shown.body.client).toEqual({ id: metadata.url, name: 'CIMD host', uri: null, kind: 'cimd' });
    expect(shown.body.redirect_host).toBe('127.0.0.1:33419');

    await first.finishAuth(await approveAs(app, owner.accessToken, host.authorizationUrl!));
    const client = new Client({ name: 'cimd-host', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp-server`), { authProvider: host }));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([toolName]);
    await client.close();
    expect(metadata.hits()).toBe(1);
  }, 60_000);

  it('refuses a document whose client_id is not its URL, one too large, and a redirect it does not list', async () => {
    const authorize = (clientId: string, redirect = REDIRECT) => {
      const url = new URL(`${app.url}/oauth/authorize`);
      const params = {
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirect,
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      };
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      return fetch(url, { redirect: 'manual' });
    };
    const unlisted = await authorize(metadata.url, 'http://127.0.0.1:33419/elsewhere');
    expect(unlisted.status).toBe(400);
    await app.deps.db('oauth_clients').where({ id: metadata.url }).delete();
    document = () => ({ client_id: 'https://someone.else/client.json', redirect_uris: [REDIRECT] });
    const impostor = await authorize(metadata.url);
    expect(await impostor.json()).toEqual({
      error: 'invalid_client',
      error_description: expect.stringContaining('client_id is not the URL it was fetched from'),
    });
    document = (url) => ({ client_id: url, client_name: 'x'.repeat(100), redirect_uris: [REDIRECT], padding: 'y'.repeat(6000) });
    const large = await authorize(metadata.url);
    expect(await large.json()).toEqual({ error: 'invalid_client', error_description: expect.stringContaining('larger than 5120 bytes') });
    const plainHttp = await authorize('http://example.com/client.json');
    expect(((await plainHttp.json()) as { error: string }).error).toBe('invalid_client');
  });
});

describe('without OAUTH_CIMD_ALLOW_PRIVATE_NETWORKS', () => {
  it('a metadata document on a loopback address is never fetched (the SSRF guard)', async () => {
    const guarded = await startOAuthApp({ OAUTH_CIMD_ALLOW_PRIVATE_NETWORKS: 'false', OAUTH_CIMD_CA_FILE: metadata.caFile });
    try {
      const before = metadata.hits();
      const url = new URL(`${guarded.url}/oauth/authorize`);
      url.searchParams.set('client_id', metadata.url.replace('/client.json', '/other.json'));
      const response = await fetch(url, { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBe('invalid_client');
      expect(metadata.hits()).toBe(before);
    } finally {
      await guarded.close();
    }
  });
});
