import { DASHBOARD_CREDENTIAL_PREFIX, signDashboardCredential, verifyDashboardCredential } from '../../core/dashboardCredential';
import { verifyAccessToken } from '../../core/sessionToken';
import { IGAMING_TEMPLATE_ID } from '../../core/templates';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createApiKey, signupOperator, type TestOperator } from '../helpers/identity';
import { addMemberAndSignIn } from '../helpers/members';
import type { ProviderAuth, TestProvider } from '../helpers/providerServer';
import { callGateway, connectSupplier, credentialsFor, KYC_SCHEMA_MAP, kycDocument, startKycSupplier } from '../helpers/suppliers';

/**
 * The dashboard credential (`POST /auth/v1/dashboard-credential`): what the signed-in dashboard sends to the data
 * API and `/gateway` instead of a per-tab API key. Bound to its session, minutes long, a Member's reads only, never
 * an API key — and API keys and session tokens answer exactly as before.
 */
const supplierAuth: ProviderAuth = { kind: 'apiKeyHeader', name: 'X-Api-Key', value: 'kyc-key-123' };

let app: TestApp;
let kyc: TestProvider;
let alice: TestOperator;
let bob: TestOperator;
let aliceConnection: string;

beforeAll(async () => {
  app = await startTestApp();
  kyc = await startKycSupplier(supplierAuth);
  [alice, bob] = await Promise.all([signupOperator(app.url, 'Alice Casino'), signupOperator(app.url, 'Bob Bets')]);
  ({ connectionId: aliceConnection } = await connectSupplier(app.url, alice.accessToken, {
    openapi: kycDocument(kyc.url, supplierAuth),
    schemaMap: KYC_SCHEMA_MAP,
    credentials: credentialsFor(supplierAuth),
  }));
});
afterAll(async () => {
  await app?.close();
  await kyc?.close();
});

const issueUrl = () => `${app.url}/auth/v1/dashboard-credential`;
const data = (path: string) => `${app.url}/operator-data-api${path}`;
const coded = (code: string, message: string) => ({ success: false, error: { code, message } });

async function issue(accessToken: string): Promise<string> {
  const response = await http(issueUrl(), { method: 'POST', token: accessToken });
  if (response.status !== 200) throw new Error(`issue failed: ${response.status} ${response.text}`);
  return response.body.credential as string;
}

async function signIn(email: string, password: string): Promise<{ accessToken: string; refreshToken: string }> {
  const response = await http(`${app.url}/auth/v1/token?grant_type=password`, { body: { email, password } });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.text}`);
  return { accessToken: response.body.access_token, refreshToken: response.body.refresh_token };
}

const keysOf = (operatorId: string) => app.deps.db('api_keys').where({ operator_id: operatorId }).count<{ count: string }[]>('* as count');

describe('POST /auth/v1/dashboard-credential: protection', () => {
  it('401 invalid_token without a session, with an API key, with a bad token and with a dashboard credential', async () => {
    const key = await createApiKey(app.url, bob, 'not a session');
    const credential = await issue(bob.accessToken);
    const cases: Array<[string | undefined, string]> = [
      [undefined, 'Authorization header is required'],
      [key.key, 'A session token is required'],
      ['not-a-token', 'Invalid credentials'],
      [credential, 'Invalid credentials'],
    ];
    for (const [token, description] of cases) {
      const response = await http(issueUrl(), { method: 'POST', token });
      expect([token?.slice(0, 9), response.status, response.body]).toEqual([
        token?.slice(0, 9),
        401,
        { error: 'invalid_token', error_description: description },
      ]);
    }
  });
});

describe('POST /auth/v1/dashboard-credential: issue', () => {
  it("200: a dsh_ credential of the caller's operator, member and sign-in, five minutes long, stored nowhere", async () => {
    const response = await http(issueUrl(), { method: 'POST', token: alice.accessToken });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toEqual({
      credential: expect.stringMatching(/^dsh_[\w-]+\.[\w-]+\.[\w-]+$/),
      token_type: 'bearer',
      expires_in: 300,
      scope: 'read write',
    });
    const claims = await verifyDashboardCredential(response.body.credential, app.deps.jwtSecret);
    const session = await verifyAccessToken(alice.accessToken, app.deps.jwtSecret);
    const owner = await app.deps.db('members').where({ operator_id: alice.operatorId, role: 'owner' }).first('id');
    expect(claims).toEqual({ userId: alice.userId, operatorId: alice.operatorId, memberId: owner.id, sessionId: session!.sessionId, sessionVersion: 1 });
    expect(await keysOf(alice.operatorId)).toEqual([{ count: '0' }]);
  });

  it("a Member's credential has the scope read", async () => {
    const member = await addMemberAndSignIn(app.deps.db, app.url, alice.operatorId, 'member');
    const response = await http(issueUrl(), { method: 'POST', token: member.accessToken });
    expect(response.body.scope).toBe('read');
  });
});

describe('on the data API, batch jobs and the gateway', () => {
  it('the Owner reads and writes the data API with it; it is no API key (none listed, none counted)', async () => {
    const credential = await issue(alice.accessToken);
    const put = await http(data('/settings'), { method: 'PUT', token: credential, body: { templateId: IGAMING_TEMPLATE_ID } });
    expect(put.status).toBe(200);
    const created = await http(data('/entities'), { token: credential, body: { entityType: 'player', externalId: 'p-1', data: { first_name: 'Ada' } } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ externalId: 'p-1', action: 'created' });
    const event = await http(data('/entities/p-1/events'), {
      token: credential,
      body: { eventType: 'transaction', data: { type: 'deposit', amount: 100, currency: 'EUR' } },
    });
    expect(event.status).toBe(201);
    const read = await http(data('/entities/p-1'), { token: credential });
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).toContain('Ada');
    const stored = await app.deps.db('entities').where({ operator_id: alice.operatorId, external_id: 'p-1' }).first('data');
    expect(stored.data.first_name).toMatch(/^enc:v1:/);

    const listed = await http(`${app.url}/api-keys`, { token: alice.accessToken });
    expect(listed.body).toEqual({ success: true, data: [] });
    expect(await keysOf(alice.operatorId)).toEqual([{ count: '0' }]);
  });

  it('starts a batch job and follows it', async () => {
    const credential = await issue(alice.accessToken);
    const submitted = await http(data('/batch/entities'), { token: credential, body: [{ entityType: 'player', externalId: 'p-2', data: {} }] });
    expect(submitted.status).toBe(202);
    const job = await http(data(`/batch/jobs/${submitted.body.data.jobId}`), { token: credential });
    expect(job.status).toBe(200);
    expect(job.body.data.id).toBe(submitted.body.data.jobId);
  });

  it('calls a supplier through /gateway', async () => {
    const credential = await issue(alice.accessToken);
    const response = await callGateway(app.url, credential, { connectionId: aliceConnection, operation: 'kyc.status', params: { playerId: 'p-7' } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, data: { playerId: 'p-7' } });
  });

  it('a Member reads with it, and cannot do what a Member cannot: 403 FORBIDDEN for every write and gateway call', async () => {
    const member = await addMemberAndSignIn(app.deps.db, app.url, alice.operatorId, 'member');
    const credential = await issue(member.accessToken);
    for (const path of ['/templates', '/settings', '/entities/p-1', '/entities/p-1/events', '/entities/p-1/state']) {
      expect([path, (await http(data(path), { token: credential })).status]).toEqual([path, 200]);
    }
    const forbidden = coded('FORBIDDEN', 'A Member may read data in the dashboard; only the Owner or an Admin can change data or call suppliers');
    const writes: Array<[string, string, unknown]> = [
      ['PUT', data('/settings'), { dataRetentionDays: 60 }],
      ['POST', data('/entities'), { entityType: 'player', externalId: 'm-1', data: {} }],
      ['POST', data('/entities/p-1/events'), { eventType: 'transaction', data: { type: 'deposit', amount: 1, currency: 'EUR' } }],
      ['PUT', data('/entities/p-1/state/risk_score'), { value: 1 }],
      ['DELETE', data('/entities/p-1'), undefined],
      ['POST', data('/batch/entities'), [{ entityType: 'player', externalId: 'm-2', data: {} }]],
      ['POST', `${app.url}/gateway`, { connectionId: aliceConnection, operation: 'kyc.status', params: { playerId: 'p-7' } }],
    ];
    for (const [method, url, body] of writes) {
      const response = await http(url, { method, token: credential, body });
      expect([method, url, response.status, response.body]).toEqual([method, url, 403, forbidden]);
    }
    expect(await app.deps.db('entities').where({ operator_id: alice.operatorId }).whereIn('external_id', ['m-1', 'm-2'])).toEqual([]);
    const player = await app.deps.db('entities').where({ operator_id: alice.operatorId, external_id: 'p-1' }).first('deleted_at');
    expect(player.deleted_at).toBeNull();
  });

  it("operator B's credential never reads or touches A's data", async () => {
    const aliceCredential = await issue(alice.accessToken);
    const submitted = await http(data('/batch/entities'), { token: aliceCredential, body: [{ entityType: 'player', externalId: 'p-3', data: {} }] });
    const credential = await issue(bob.accessToken);
    const entity = await http(data('/entities/p-1'), { token: credential });
    expect(entity.status).toBe(404);
    expect(entity.body.error.code).toBe('ENTITY_NOT_FOUND');
    expect((await http(data('/entities/p-1/events'), { token: credential })).status).toBe(404);
    expect((await http(data(`/batch/jobs/${submitted.body.data.jobId}`), { token: credential })).status).toBe(404);
    const gateway = await callGateway(app.url, credential, { connectionId: aliceConnection, operation: 'kyc.status', params: { playerId: 'p-7' } });
    expect(gateway.status).toBe(404);
    expect(gateway.body.error.code).toBe('CONNECTION_NOT_FOUND');
    const settings = await http(data('/settings'), { token: credential });
    expect(settings.body.data.template).toBeNull();
  });
});

describe('ended with its session', () => {
  it('is refused after a local sign-out (401 UNAUTHORIZED, AUTH_REVOKED), and none is issued any more', async () => {
    const session = await signIn(alice.email, alice.password);
    const credential = await issue(session.accessToken);
    expect((await http(data('/templates'), { token: credential })).status).toBe(200);
    expect((await http(`${app.url}/auth/v1/logout?scope=local`, { method: 'POST', token: session.accessToken })).status).toBe(204);
    const ended = 'The session of this dashboard credential has ended';
    expect(await http(data('/templates'), { token: credential })).toMatchObject({ status: 401, body: coded('UNAUTHORIZED', ended) });
    const gateway = await callGateway(app.url, credential, { connectionId: aliceConnection, operation: 'kyc.status', params: {} });
    expect([gateway.status, gateway.body]).toEqual([401, coded('AUTH_REVOKED', ended)]);
    const again = await http(issueUrl(), { method: 'POST', token: session.accessToken });
    expect([again.status, again.body]).toEqual([401, { error: 'invalid_token', error_description: 'Credentials have been revoked' }]);
    expect((await http(data('/templates'), { token: await issue(alice.accessToken) })).status).toBe(200);
  });

  it('is refused after a global sign-out', async () => {
    const member = await addMemberAndSignIn(app.deps.db, app.url, alice.operatorId, 'admin');
    const credential = await issue(member.accessToken);
    expect((await http(`${app.url}/auth/v1/logout`, { method: 'POST', token: member.accessToken })).status).toBe(204);
    expect((await http(data('/templates'), { token: credential })).status).toBe(401);
  });

  it("is refused once the session's refresh tokens are revoked (a rotated refresh token presented again)", async () => {
    const session = await signIn(alice.email, alice.password);
    const credential = await issue(session.accessToken);
    const rotated = await http(`${app.url}/auth/v1/token?grant_type=refresh_token`, { body: { refresh_token: session.refreshToken } });
    expect(rotated.status).toBe(200);
    expect((await http(data('/templates'), { token: credential })).status).toBe(200);
    const reused = await http(`${app.url}/auth/v1/token?grant_type=refresh_token`, { body: { refresh_token: session.refreshToken } });
    expect(reused.status).toBe(400);
    expect(await http(data('/templates'), { token: credential })).toMatchObject({
      status: 401,
      body: coded('UNAUTHORIZED', 'The session of this dashboard credential has ended'),
    });
  });

  it('is refused for a suspended member', async () => {
    const member = await addMemberAndSignIn(app.deps.db, app.url, alice.operatorId, 'member');
    const credential = await issue(member.accessToken);
    const suspend = await http(`${app.url}/platform-api/operators/me/members/${member.memberId}`, { method: 'DELETE', token: alice.accessToken });
    expect(suspend.status).toBe(200);
    expect((await http(data('/templates'), { token: credential })).status).toBe(401);
  });

  it('an expired, forged or re-labelled token is refused as invalid', async () => {
    const claims = (await verifyDashboardCredential(await issue(alice.accessToken), app.deps.jwtSecret))!;
    const expired = await signDashboardCredential(claims, app.deps.jwtSecret, 3);
    expect((await http(data('/templates'), { token: expired })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 4100));
    const forged = await signDashboardCredential(claims, 'another-secret-that-is-32-characters-long', 300);
    for (const token of [expired, forged, `${DASHBOARD_CREDENTIAL_PREFIX}${alice.accessToken}`]) {
      const response = await http(data('/templates'), { token });
      expect([token.slice(-8), response.status, response.body]).toEqual([
        token.slice(-8),
        401,
        coded('UNAUTHORIZED', 'Invalid or expired dashboard credential'),
      ]);
      const gateway = await callGateway(app.url, token, { connectionId: aliceConnection, operation: 'kyc.status', params: {} });
      expect(gateway.body).toEqual(coded('AUTH_INVALID', 'Invalid or expired dashboard credential'));
    }
  });
});

describe('API keys and session tokens exactly as before', () => {
  it('the data API: missing, unknown, revoked key and a session access token', async () => {
    const [key, spare] = [await createApiKey(app.url, bob, 'live'), await createApiKey(app.url, bob, 'spare')];
    expect((await http(`${app.url}/api-keys?id=${spare.id}`, { method: 'DELETE', token: bob.accessToken })).status).toBe(200);
    const cases: Array<[string | undefined, number, unknown]> = [
      [undefined, 401, coded('UNAUTHORIZED', 'Missing API key')],
      [`svc_live_${'f'.repeat(64)}`, 401, coded('UNAUTHORIZED', 'Invalid API key')],
      [spare.key, 401, coded('UNAUTHORIZED', 'API key has been revoked')],
      [bob.accessToken, 401, coded('UNAUTHORIZED', 'Invalid API key')],
    ];
    for (const [token, status, body] of cases) {
      const response = await http(data('/templates'), { token });
      expect([token?.slice(0, 12), response.status, response.body]).toEqual([token?.slice(0, 12), status, body]);
    }
    expect((await http(data('/templates'), { token: key.key })).status).toBe(200);
    const gateway = await callGateway(app.url, bob.accessToken, { connectionId: aliceConnection, operation: 'kyc.status', params: {} });
    expect([gateway.status, gateway.body]).toEqual([401, coded('AUTH_INVALID', 'Invalid API key')]);
  });

  it('a key still records its use; a dashboard credential never touches a key', async () => {
    const key = await createApiKey(app.url, bob, 'used');
    const lastUse = async () => (await app.deps.db('api_keys').where({ id: key.id }).first('last_used_at')).last_used_at as Date | null;
    expect((await http(data('/templates'), { token: await issue(bob.accessToken) })).status).toBe(200);
    await app.deps.keyUsage.flush();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await lastUse()).toBeNull();
    expect((await http(data('/templates'), { token: key.key })).status).toBe(200);
    await app.deps.keyUsage.flush();
    for (let tries = 0; tries < 20 && (await lastUse()) === null; tries += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await lastUse()).toBeInstanceOf(Date);
  });

  it('is accepted nowhere else: key management, analytics, workflows, team, identity and MCP refuse it', async () => {
    const credential = await issue(bob.accessToken);
    const expectations: Array<[string, string, number, unknown]> = [
      ['GET', '/api-keys', 401, { success: false, error: 'Invalid credentials' }],
      ['GET', '/analytics-api/analytics/kpis', 401, coded('UNAUTHORIZED', 'Invalid API key or session token')],
      ['GET', '/workflows-api/workflows', 401, coded('UNAUTHORIZED', 'Invalid credentials')],
      ['GET', '/auth/v1/user', 401, { error: 'invalid_token', error_description: 'Invalid credentials' }],
    ];
    for (const [method, path, status, body] of expectations) {
      const response = await http(`${app.url}${path}`, { method, token: credential });
      expect([path, response.status, response.body]).toEqual([path, status, body]);
    }
    const team = await http(`${app.url}/platform-api/operators/me/members`, { token: credential });
    expect([team.status, team.body.code]).toEqual([401, 'UNAUTHORIZED']);
    const mcp = await http(`${app.url}/mcp-server`, { token: credential, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect([mcp.status, JSON.stringify(mcp.body)]).toEqual([401, expect.stringContaining('AUTH_INVALID_FORMAT')]);
  });
});

describe('limits and audit', () => {
  let limited: TestApp;
  const logLines: string[] = [];
  let carol: TestOperator;
  beforeAll(async () => {
    limited = await startTestApp({ RATE_LIMIT_INGEST_REALTIME: '3', DASHBOARD_CREDENTIAL_TTL_SECONDS: '60' }, { logLines });
    carol = await signupOperator(limited.url, 'Carol Casino');
  });
  afterAll(() => limited?.close());

  it('counts against its operator like a key of that operator: 429 RATE_LIMITED once the class is spent', async () => {
    const key = await createApiKey(limited.url, carol, 'backend');
    const issued = await http(`${limited.url}/auth/v1/dashboard-credential`, { method: 'POST', token: carol.accessToken });
    expect(issued.body.expires_in).toBe(60);
    const write = (token: string, externalId: string) =>
      http(`${limited.url}/operator-data-api/entities`, { token, body: { entityType: 'player', externalId, data: {} } });
    await http(`${limited.url}/operator-data-api/settings`, { method: 'PUT', token: key.key, body: { templateId: IGAMING_TEMPLATE_ID } });
    expect((await write(key.key, 'c-1')).status).toBe(201);
    expect((await write(issued.body.credential, 'c-2')).status).toBe(201);
    expect((await write(key.key, 'c-3')).status).toBe(201);
    const spent = await write(issued.body.credential, 'c-4');
    expect(spent.status).toBe(429);
    expect(spent.body.error.code).toBe('RATE_LIMITED');
    expect(spent.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('attributes each request to the member in the access log, and never logs the credential', async () => {
    const member = await addMemberAndSignIn(limited.deps.db, limited.url, carol.operatorId, 'member');
    const issued = await http(`${limited.url}/auth/v1/dashboard-credential`, { method: 'POST', token: member.accessToken });
    await http(`${limited.url}/operator-data-api/templates`, { token: issued.body.credential });
    const entries = logLines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request' && entry.path === '/operator-data-api/templates');
    expect(entries.at(-1)).toMatchObject({ status: 200, operatorId: carol.operatorId, memberId: member.memberId, credential: 'dashboardCredential' });
    expect(logLines.join('\n')).not.toContain(issued.body.credential);
  });
});
