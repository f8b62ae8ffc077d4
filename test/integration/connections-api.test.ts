import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createApiKey, signupOperator, type TestOperator } from '../helpers/identity';
import { addMemberAndSignIn } from '../helpers/members';
import { KYC_SCHEMA_MAP, kycDocument, paymentsSwaggerYaml } from '../helpers/suppliers';

let app: TestApp;
let alice: TestOperator;
let bob: TestOperator;
let aliceKey: string;
let bobKey: string;

beforeAll(async () => {
  app = await startTestApp();
  [alice, bob] = await Promise.all([signupOperator(app.url, 'Alice Casino'), signupOperator(app.url, 'Bob Bets')]);
  [aliceKey, bobKey] = await Promise.all([createApiKey(app.url, alice).then((k) => k.key), createApiKey(app.url, bob).then((k) => k.key)]);
});
afterAll(() => app.close());

const url = (path: string) => `${app.url}/connections-api${path}`;
const kycDoc = () => kycDocument('https://kyc.example', { kind: 'apiKeyHeader', name: 'X-Api-Key', value: 'k' });

async function createConnector(token: string, body: Record<string, unknown> = {}) {
  const response = await http(url('/connectors'), {
    token,
    body: { name: 'VeriKYC', provider: 'verikyc', openapi: kycDoc(), schemaMap: KYC_SCHEMA_MAP, ...body },
  });
  expect(response.status).toBe(201);
  return response.body.data as { id: string };
}

describe('protection', () => {
  it('401 UNAUTHORIZED without or with bad credentials, on every route', async () => {
    const routes: Array<[string, string]> = [
      ['GET', '/connectors'],
      ['POST', '/connectors'],
      ['GET', '/connectors/cnr_x'],
      ['DELETE', '/connectors/cnr_x'],
      ['GET', '/connections'],
      ['POST', '/connections'],
      ['GET', '/connections/conn_x'],
      ['PATCH', '/connections/conn_x'],
    ];
    for (const [method, path] of routes) {
      const missing = await http(url(path), { method, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expect([method, path, missing.status, missing.body]).toEqual([
        method,
        path,
        401,
        { success: false, error: { code: 'UNAUTHORIZED', message: 'Authorization header is required' } },
      ]);
    }
    const unknown = await http(url('/connectors'), { token: `svc_live_${'0'.repeat(64)}` });
    expect(unknown.body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: 'Invalid credentials' } });
  });

  it('a Member may read but not write (403 FORBIDDEN); an Admin and an API key may write', async () => {
    const member = await addMemberAndSignIn(app.deps.db, app.url, alice.operatorId, 'member');
    const refused = await http(url('/connectors'), { token: member.accessToken, body: { name: 'x', provider: 'y' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ success: false, error: { code: 'FORBIDDEN', message: 'Only the Owner or an Admin can manage connectors and connections' } });
    const patch = await http(url('/connections/conn_x'), { method: 'PATCH', token: member.accessToken, body: { active: false } });
    expect(patch.status).toBe(403);
    expect((await http(url('/connectors'), { token: member.accessToken })).status).toBe(200);

    const admin = await addMemberAndSignIn(app.deps.db, app.url, alice.operatorId, 'admin');
    await createConnector(admin.accessToken, { openapi: undefined });
    await createConnector(aliceKey, { openapi: undefined });
  });
});

describe('connector input errors', () => {
  it('400 MISSING_FIELDS and VALIDATION_FAILED name the fields', async () => {
    const missing = await http(url('/connectors'), { token: aliceKey, body: { openapi: kycDoc() } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'MISSING_FIELDS', message: 'Missing required fields: name, provider' });
    const wrongType = await http(url('/connectors'), {
      token: aliceKey,
      body: { name: 'a', provider: 'b', openapi: [1], schemaMap: { firstName: 3 }, extra: true },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.code).toBe('VALIDATION_FAILED');
    const fields = wrongType.body.error.details.map((problem: { field: string }) => problem.field);
    expect(fields).toEqual(expect.arrayContaining(['openapi', 'schemaMap.firstName', 'body']));
  });

  it('400 VALIDATION_FAILED for a schemaMap that maps two canonical fields onto one provider field', async () => {
    const response = await http(url('/connectors'), {
      token: aliceKey,
      body: { name: 'a', provider: 'b', schemaMap: { firstName: 'name', lastName: 'name' } },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'schemaMap maps several canonical fields to the same provider field: name',
    });
  });

  it('400 INVALID_OPENAPI naming the problem, for objects, JSON text and YAML text', async () => {
    const invalid = { openapi: '3.0.3', info: { title: 'No version' }, paths: {} };
    for (const openapi of [invalid, JSON.stringify(invalid, null, 2), 'openapi: 3.0.3\ninfo:\n  title: No version\npaths: {}\n']) {
      const response = await http(url('/connectors'), { token: aliceKey, body: { name: 'a', provider: 'b', openapi } });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('INVALID_OPENAPI');
      expect(response.body.error.message).toMatch(/^Invalid OpenAPI document: REQUIRED must have required property 'version' \(at line \d+: /);
      expect(response.body.error.details[0]).toEqual({ field: 'openapi', message: expect.stringContaining("'version'") });
    }
    const garbage = await http(url('/connectors'), { token: aliceKey, body: { name: 'a', provider: 'b', openapi: '{ not: [yaml' } });
    expect(garbage.body.error).toMatchObject({ code: 'INVALID_OPENAPI', message: expect.stringMatching(/^Invalid OpenAPI document: not valid JSON or YAML/) });
    const count = await app.deps.db('connectors').where({ operator_id: alice.operatorId, name: 'a' }).count<{ count: string }[]>({ count: '*' });
    expect(Number(count[0]!.count)).toBe(0);
  });
});

describe('connectors', () => {
  it('creates from an object: the record lists operations and security schemes, the row keeps the document', async () => {
    const response = await http(url('/connectors'), {
      token: aliceKey,
      body: { name: 'VeriKYC', provider: 'verikyc', openapi: kycDoc(), schemaMap: KYC_SCHEMA_MAP },
    });
    expect(response.status).toBe(201);
    const data = response.body.data;
    expect(data).toMatchObject({
      id: expect.stringMatching(/^cnr_[0-9a-f]{32}$/),
      name: 'VeriKYC',
      provider: 'verikyc',
      hasSpec: true,
      specification: 'OpenAPI',
      serverUrl: 'https://kyc.example/v1',
      operationCount: 4,
      schemaMap: KYC_SCHEMA_MAP,
      securitySchemes: { supplierAuth: { kind: 'apiKey', name: 'X-Api-Key', in: 'header' } },
      openapi: kycDoc(),
    });
    expect(data.operations[0]).toEqual({
      method: 'GET',
      path: '/players/{player_ref}/kyc',
      operationId: 'getKycStatus',
      summary: 'Get the KYC status of a player',
    });
    const row = await app.deps.db('connectors').where({ id: data.id }).first();
    expect(row).toMatchObject({ operator_id: alice.operatorId, openapi: kycDoc(), schema_map: KYC_SCHEMA_MAP });
    expect(row.blueprint.operations).toHaveLength(4);

    const read = await http(url(`/connectors/${data.id}`), { token: alice.accessToken });
    expect(read.body).toEqual({ success: true, data });
  });

  it('creates from Swagger 2.0 YAML text and without a spec; lists summaries without documents', async () => {
    const swagger = await createConnector(aliceKey, {
      name: 'PayFlow',
      provider: 'payflow',
      openapi: paymentsSwaggerYaml('http://127.0.0.1:1', { kind: 'basic', username: 'u', password: 'p' }),
      schemaMap: undefined,
    });
    const bare = await createConnector(aliceKey, { name: 'Bare', openapi: undefined, schemaMap: undefined });
    const list = await http(url('/connectors'), { token: aliceKey });
    expect(list.status).toBe(200);
    const byId = new Map(list.body.data.map((connector: { id: string }) => [connector.id, connector]));
    expect(byId.get(swagger.id)).toMatchObject({ specification: 'Swagger', serverUrl: 'http://127.0.0.1:1/api', operationCount: 5, schemaMap: {} });
    expect(byId.get(bare.id)).toMatchObject({ hasSpec: false, specification: null, operationCount: 0 });
    expect(list.body.data.every((connector: Record<string, unknown>) => !('openapi' in connector))).toBe(true);
  });

  it('deletes a connector (404 CONNECTOR_NOT_FOUND after)', async () => {
    const connector = await createConnector(aliceKey);
    const removed = await http(url(`/connectors/${connector.id}`), { method: 'DELETE', token: aliceKey });
    expect(removed.body).toEqual({ success: true, data: { id: connector.id, deleted: true } });
    const again = await http(url(`/connectors/${connector.id}`), { method: 'DELETE', token: aliceKey });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ success: false, error: { code: 'CONNECTOR_NOT_FOUND', message: `Connector ${connector.id} not found` } });
  });
});

describe('connections', () => {
  const credentials = { apiKey: 'kyc-live-key-0123456789', secret: 'hmac-secret-abcdef' };

  it('404 CONNECTOR_NOT_FOUND for an unknown connector; 400 when the connector has no absolute server URL and no baseUrl is given', async () => {
    const unknown = await http(url('/connections'), { token: aliceKey, body: { connectorId: 'cnr_nope', name: 'x', credentials: {} } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toEqual({ code: 'CONNECTOR_NOT_FOUND', message: 'Connector cnr_nope not found' });

    const relative = await createConnector(aliceKey, {
      openapi: { openapi: '3.0.3', info: { title: 'r', version: '1' }, servers: [{ url: '/v1' }], paths: {} },
    });
    const noBase = await http(url('/connections'), { token: aliceKey, body: { connectorId: relative.id, name: 'x', credentials: {} } });
    expect(noBase.status).toBe(400);
    expect(noBase.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: "baseUrl is required: the connector's OpenAPI document has no absolute server URL",
    });

    const badInput = await http(url('/connections'), {
      token: aliceKey,
      body: { connectorId: relative.id, name: 'x', credentials: { pin: '1' }, baseUrl: 'ftp://x' },
    });
    expect(badInput.status).toBe(400);
    expect(badInput.body.error.code).toBe('VALIDATION_FAILED');
    const missing = await http(url('/connections'), { token: aliceKey, body: { name: 'x' } });
    expect(missing.body.error).toMatchObject({ code: 'MISSING_FIELDS', message: 'Missing required fields: connectorId, credentials' });
  });

  it('stores credentials AES-256-GCM encrypted (raw SQL), never returns them, and patches fields', async () => {
    const connector = await createConnector(aliceKey);
    const created = await http(url('/connections'), { token: aliceKey, body: { connectorId: connector.id, name: 'KYC live', credentials } });
    expect(created.status).toBe(201);
    const connection = created.body.data;
    expect(connection).toEqual({
      id: expect.stringMatching(/^conn_[0-9a-f]{32}$/),
      connectorId: connector.id,
      name: 'KYC live',
      baseUrl: null,
      active: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(created.text).not.toContain(credentials.apiKey);

    const raw = await app.deps.db.raw('SELECT credentials_ciphertext FROM connections WHERE id = ?', [connection.id]);
    const sealed: string = raw.rows[0].credentials_ciphertext;
    expect(sealed).toMatch(/^enc:v1:[0-9a-f]{8}:/);
    expect(sealed).not.toContain(credentials.apiKey);
    expect(sealed).not.toContain(credentials.secret);
    expect(app.deps.keyring.decryptJson(sealed, `${alice.operatorId}:connection:${connection.id}`)).toEqual(credentials);
    expect(() => app.deps.keyring.decryptJson(sealed, `${bob.operatorId}:connection:${connection.id}`)).toThrow();

    for (const listing of [
      await http(url('/connections'), { token: aliceKey }),
      await http(url(`/connections/${connection.id}`), { token: alice.accessToken }),
    ]) {
      expect(listing.status).toBe(200);
      expect(listing.text).not.toContain(credentials.apiKey);
      expect(listing.text).not.toContain('enc:v1');
    }

    const patched = await http(url(`/connections/${connection.id}`), {
      method: 'PATCH',
      token: aliceKey,
      body: { active: false, name: 'Paused', baseUrl: 'https://kyc-eu.example/v1', credentials: { token: 'new-token' } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ id: connection.id, name: 'Paused', active: false, baseUrl: 'https://kyc-eu.example/v1' });
    const after = await app.deps.db('connections').where({ id: connection.id }).first();
    expect(app.deps.keyring.decryptJson(after.credentials_ciphertext, `${alice.operatorId}:connection:${connection.id}`)).toEqual({ token: 'new-token' });

    const empty = await http(url(`/connections/${connection.id}`), { method: 'PATCH', token: aliceKey, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('VALIDATION_FAILED');
  });
});

describe('tenant isolation', () => {
  it("another operator's connectors and connections are 404 and never listed", async () => {
    const connector = await createConnector(aliceKey);
    const connection = (await http(url('/connections'), { token: aliceKey, body: { connectorId: connector.id, name: 'A', credentials: { apiKey: 'a' } } })).body
      .data;

    expect((await http(url(`/connectors/${connector.id}`), { token: bobKey })).body.error.code).toBe('CONNECTOR_NOT_FOUND');
    expect((await http(url(`/connectors/${connector.id}`), { method: 'DELETE', token: bobKey })).status).toBe(404);
    expect((await http(url(`/connections/${connection.id}`), { token: bobKey })).body.error.code).toBe('CONNECTION_NOT_FOUND');
    const patch = await http(url(`/connections/${connection.id}`), { method: 'PATCH', token: bob.accessToken, body: { active: false } });
    expect(patch.status).toBe(404);
    const borrow = await http(url('/connections'), { token: bobKey, body: { connectorId: connector.id, name: 'B', credentials: {} } });
    expect(borrow.status).toBe(404);
    expect(borrow.body.error.code).toBe('CONNECTOR_NOT_FOUND');

    const bobConnectors = await http(url('/connectors'), { token: bobKey });
    const bobConnections = await http(url('/connections'), { token: bobKey });
    expect(bobConnectors.body.data).toEqual([]);
    expect(bobConnections.body.data).toEqual([]);
    expect((await app.deps.db('connections').where({ id: connection.id }).first()).active).toBe(true);
  });
});
