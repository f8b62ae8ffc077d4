import { randomBytes } from 'node:crypto';
import type { TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { signupOperator, type TestOperator } from '../helpers/identity';
import { rpc } from '../helpers/mcp';
import { consentRequestOf, decide, startOAuthApp } from '../helpers/mcpOAuth';
import { approvedCode, authorizeUrl, connectedTokens, exchange, pkcePair, REDIRECT, registerClient, tokenRequest } from '../helpers/mcpOAuthRaw';

let app: TestApp;
let other: TestApp;
let owner: TestOperator;

beforeAll(async () => {
  app = await startOAuthApp();
  // The same database behind another public URL: its resource (the tokens' audience) is another.
  other = await startOAuthApp();
  owner = await signupOperator(app.url, 'Refusing Casino');
}, 60_000);
afterAll(async () => {
  await Promise.all([app?.close(), other?.close()]);
});

const listTools = (target: TestApp, token: string) => http(`${target.url}/mcp-server`, { token, body: rpc('tools/list') });
const grantActions = async () =>
  app.deps.db('audit_events').where({ operator_id: owner.operatorId, target_type: 'mcp_grant' }).orderBy('occurred_at').pluck('action') as Promise<string[]>;

describe('tokens are refused where they do not belong', () => {
  it('wrong audience: a token issued for one resource is invalid_token at another; authorize refuses another resource', async () => {
    const { access } = await connectedTokens(app, owner.accessToken);
    expect((await listTools(app, access)).status).toBe(200);
    const elsewhere = await listTools(other, access);
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body.error).toEqual({ code: -32001, message: 'code: AUTH_INVALID' });
    expect(elsewhere.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(elsewhere.headers.get('www-authenticate')).toContain(`resource_metadata="${other.url}/.well-known/oauth-protected-resource/mcp-server"`);

    const client = (await registerClient(app)).body.client_id as string;
    const asked = await fetch(authorizeUrl(app, client, pkcePair().challenge, { resource: `${other.url}/mcp-server` }), { redirect: 'manual' });
    const back = new URL(asked.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: 'invalid_target', state: 'raw-state', iss: app.url });
  });

  it('a reused refresh token revokes the whole family, audited', async () => {
    const { grant, refresh } = await connectedTokens(app, owner.accessToken);
    const rotate = (token: string) => tokenRequest(app, { grant_type: 'refresh_token', refresh_token: token, client_id: grant.clientId });
    const first = await rotate(refresh);
    expect(first.status).toBe(200);
    expect((await listTools(app, first.body.access_token!)).status).toBe(200);
    const replay = await rotate(refresh);
    expect(replay).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'Invalid or expired refresh token' } });
    expect((await listTools(app, first.body.access_token!)).status).toBe(401);
    expect((await rotate(first.body.refresh_token!)).status).toBe(400);
    expect(await grantActions()).toContain('mcp_grant.refresh_reused');
  });

  it('a reused code is invalid_grant and revokes what the first exchange issued', async () => {
    const grant = await approvedCode(app, owner.accessToken);
    const first = await exchange(app, grant);
    expect(first.status).toBe(200);
    expect(await exchange(app, grant)).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'Invalid or expired authorization code' } });
    expect((await listTools(app, first.body.access_token!)).status).toBe(401);
  });

  it('a wrong code_verifier, redirect_uri or client is invalid_grant; the code then still works once', async () => {
    const grant = await approvedCode(app, owner.accessToken);
    const wrongVerifier = await exchange(app, grant, { code_verifier: pkcePair().verifier });
    expect(wrongVerifier).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'code_verifier does not match the code challenge' } });
    expect((await exchange(app, grant, { redirect_uri: 'http://127.0.0.1:40111/other' })).body.error).toBe('invalid_grant');
    const otherClient = (await registerClient(app)).body.client_id as string;
    expect((await exchange(app, grant, { client_id: otherClient })).body.error).toBe('invalid_grant');
    expect((await exchange(app, grant, { resource: `${other.url}/mcp-server` })).body.error).toBe('invalid_target');
    expect((await exchange(app, grant)).status).toBe(200);
  });

  it('an unregistered redirect_uri is answered here (400), never redirected to', async () => {
    const client = (await registerClient(app)).body.client_id as string;
    const response = await fetch(authorizeUrl(app, client, pkcePair().challenge, { redirect_uri: 'https://evil.example/cb' }), { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.json()).toEqual({ error: 'invalid_request', error_description: 'redirect_uri is not one the client registered' });
    const unknown = await fetch(authorizeUrl(app, 'mcpc_00000000000000000000000000000000', pkcePair().challenge), { redirect: 'manual' });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toBe('invalid_client');
  });

  it('authorize without S256 PKCE goes back with invalid_request; a loopback redirect matches on any port (RFC 8252)', async () => {
    const client = (await registerClient(app)).body.client_id as string;
    const plain = await fetch(authorizeUrl(app, client, pkcePair().challenge, { code_challenge_method: 'plain' }), { redirect: 'manual' });
    expect(new URL(plain.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    const port = await fetch(authorizeUrl(app, client, pkcePair().challenge, { redirect_uri: 'http://127.0.0.1:51999/callback' }), { redirect: 'manual' });
    expect(new URL(port.headers.get('location')!).pathname).toBe('/consent');
  });
});

describe('the member’s decision', () => {
  it('a denial goes back with access_denied, state and iss; a request is decided once, and not after 10 minutes', async () => {
    const client = (await registerClient(app)).body.client_id as string;
    const requestId = await consentRequestOf(authorizeUrl(app, client, pkcePair().challenge));
    const denied = await decide(app, owner.accessToken, requestId, { decision: 'deny' });
    expect(denied.status).toBe(200);
    expect(Object.fromEntries(denied.redirect!.searchParams)).toEqual({
      error: 'access_denied',
      error_description: 'The member denied access',
      state: 'raw-state',
      iss: app.url,
    });
    expect((await decide(app, owner.accessToken, requestId)).status).toBe(404);
    const late = await consentRequestOf(authorizeUrl(app, client, pkcePair().challenge));
    await app.deps
      .db('oauth_requests')
      .where({ id: late })
      .update({ expires_at: app.deps.db.raw("now() - interval '1 second'") });
    expect((await decide(app, owner.accessToken, late)).body).toMatchObject({ error: 'invalid_request' });
    expect((await decide(app, 'not-a-session', late)).status).toBe(401);
  });
});

describe('Dynamic Client Registration validates redirect URIs exactly', () => {
  it('takes https, loopback http and native schemes together (as Cursor sends them), refuses the rest naming the URI', async () => {
    const cursor = await registerClient(app, {
      client_name: 'Cursor',
      redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback', 'http://localhost:6274/oauth/callback', 'https://cursor.com/cb'],
    });
    expect(cursor.status).toBe(201);
    expect(cursor.body).toMatchObject({
      client_id: expect.stringMatching(/^mcpc_/),
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    for (const [uri, why] of [
      ['http://host.example/cb', 'http is allowed for loopback hosts only'],
      ['javascript://alert(1)', 'the javascript scheme is not allowed'],
      ['https://a.example/cb#frag', 'must not have a fragment'],
    ]) {
      const refused = await registerClient(app, { redirect_uris: ['https://ok.example/cb', uri] });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ error: 'invalid_redirect_uri', error_description: expect.stringContaining(why!) });
    }
    expect((await registerClient(app, { grant_types: ['client_credentials'] })).body.error).toBe('invalid_client_metadata');
  });

  it('is rate-limited per address', async () => {
    const limited = await startOAuthApp({ RATE_LIMIT_OAUTH_REGISTER: '2', TRUST_PROXY: 'true' });
    const address = `2001:db8::${randomBytes(6).toString('hex').match(/..../g)!.join(':')}`;
    try {
      const statuses = [];
      for (let i = 0; i < 3; i += 1) {
        const response = await http(`${limited.url}/oauth/register`, { headers: { 'x-forwarded-for': address }, body: { redirect_uris: [REDIRECT] } });
        statuses.push(response.status);
      }
      expect(statuses).toEqual([201, 201, 429]);
    } finally {
      await limited.close();
    }
  });

  it('removes registrations that expired unused', async () => {
    const stale = (await registerClient(app)).body.client_id as string;
    await app.deps
      .db('oauth_clients')
      .where({ id: stale })
      .update({ expires_at: app.deps.db.raw("now() - interval '2 days'") });
    await registerClient(app);
    expect(await app.deps.db('oauth_clients').where({ id: stale }).first()).toBeUndefined();
  });
});
