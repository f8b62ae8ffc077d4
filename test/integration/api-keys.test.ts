import { createHash } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createApiKey, signupOperator, type TestOperator } from '../helpers/identity';
import { createWorkflow, toolAutomation } from '../helpers/mcp';
import { addMemberAndSignIn } from '../helpers/members';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

let app: TestApp;
let alice: TestOperator;
let bob: TestOperator;

beforeAll(async () => {
  app = await startTestApp();
  [alice, bob] = await Promise.all([signupOperator(app.url, 'Alice Casino'), signupOperator(app.url, 'Bob Bets')]);
});
afterAll(() => app.close());

const keysUrl = () => `${app.url}/api-keys`;

describe('protection', () => {
  it('401 without credentials, for every method', async () => {
    for (const method of ['GET', 'POST', 'PATCH', 'DELETE']) {
      const response = await http(keysUrl(), { method, body: method === 'GET' ? undefined : { operatorId: alice.operatorId } });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ success: false, error: 'Authorization header is required' });
    }
  });

  it('401 for an unknown key and for a forged session token', async () => {
    const unknown = await http(keysUrl(), { token: `svc_live_${'a'.repeat(64)}` });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ success: false, error: 'Invalid credentials' });
    const [header, payload] = alice.accessToken.split('.');
    const forged = await http(keysUrl(), { token: `${header}.${payload}.${'x'.repeat(43)}` });
    expect(forged.status).toBe(401);
  });

  it('403 when a Member (not Owner or Admin) tries to manage keys; listing is allowed', async () => {
    const member = await addMemberAndSignIn(app.deps.db, app.url, alice.operatorId, 'member');
    const create = await http(keysUrl(), { token: member.accessToken, body: { operatorId: alice.operatorId } });
    expect(create.status).toBe(403);
    expect(create.body).toEqual({ success: false, error: 'Only the Owner or an Admin can manage API keys' });
    expect((await http(keysUrl(), { token: member.accessToken })).status).toBe(200);
  });

  it('an Admin may manage keys', async () => {
    const admin = await addMemberAndSignIn(app.deps.db, app.url, alice.operatorId, 'admin');
    const create = await http(keysUrl(), { token: admin.accessToken, body: { operatorId: alice.operatorId, label: 'by admin' } });
    expect(create.status).toBe(201);
  });
});

describe('error rows of spec 7.1', () => {
  it('400 operatorId is required', async () => {
    const response = await http(keysUrl(), { token: alice.accessToken, body: { label: 'x' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, error: 'operatorId is required' });
  });

  it('403 when operatorId names another operator', async () => {
    const response = await http(keysUrl(), { token: alice.accessToken, body: { operatorId: bob.operatorId } });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, error: 'operatorId does not match the authenticated operator' });
  });

  it('400 id and label are required', async () => {
    for (const body of [{ id: 'x' }, { label: 'y' }, {}]) {
      const response = await http(keysUrl(), { method: 'PATCH', token: alice.accessToken, body });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ success: false, error: 'id and label are required' });
    }
  });

  it("400 Query parameter 'id' is required", async () => {
    const response = await http(keysUrl(), { method: 'DELETE', token: alice.accessToken });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, error: "Query parameter 'id' is required" });
  });

  it('400 last-key guard, and the key stays active', async () => {
    const owner = await signupOperator(app.url);
    const only = await createApiKey(app.url, owner);
    const response = await http(`${keysUrl()}?id=${only.id}`, { method: 'DELETE', token: owner.accessToken });
    expect(response.status).toBe(400);
    expect(response.body.success).toBe(false);
    expect(response.body.error).toMatch(/^Cannot revoke your last active API key\. Create a new key first/);
    expect((await http(keysUrl(), { token: only.key })).status).toBe(200);
  });

  it('400 hard delete of an active key', async () => {
    const key = await createApiKey(app.url, alice);
    const response = await http(`${keysUrl()}?id=${key.id}&hard=true`, { method: 'DELETE', token: alice.accessToken });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/^Cannot delete an active key\. Revoke it first/);
    expect(await app.deps.db('api_keys').where({ id: key.id }).first()).toBeDefined();
  });

  it('405 Method not allowed, with and without the /functions/v1 prefix', async () => {
    for (const url of [keysUrl(), `${app.url}/functions/v1/api-keys`]) {
      const response = await http(url, { method: 'PUT', token: alice.accessToken, body: {} });
      expect(response.status).toBe(405);
      expect(response.body).toEqual({ success: false, error: 'Method not allowed' });
    }
  });

  it('404 Key not found for unknown and malformed ids', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const rename = await http(keysUrl(), { method: 'PATCH', token: alice.accessToken, body: { id, label: 'x' } });
      expect(rename.status).toBe(404);
      expect(rename.body).toEqual({ success: false, error: 'Key not found' });
      const revoke = await http(`${keysUrl()}?id=${id}`, { method: 'DELETE', token: alice.accessToken });
      expect(revoke.status).toBe(404);
    }
  });
});

describe('lifecycle', () => {
  it('signup → token → create key → list, end to end', async () => {
    const owner = await signupOperator(app.url, 'Flow Casino');
    const login = await http(`${app.url}/auth/v1/token?grant_type=password`, { body: { email: owner.email, password: owner.password } });
    const created = await http(keysUrl(), { token: login.body.access_token, body: { operatorId: owner.operatorId, label: 'flow' } });
    expect(created.status).toBe(201);
    const list = await http(keysUrl(), { token: created.body.data.key });
    expect(list.status).toBe(200);
    expect(list.body.data.map((item: { id: string }) => item.id)).toEqual([created.body.data.id]);
  });

  it('create returns the plaintext once and stores only its SHA-256 hash', async () => {
    const response = await http(`${app.url}/functions/v1/api-keys`, { token: alice.accessToken, body: { operatorId: alice.operatorId, label: 'Production' } });
    expect(response.status).toBe(201);
    const { id, key, label, createdAt } = response.body.data;
    expect(key).toMatch(/^svc_live_[0-9a-f]{64}$/);
    expect(label).toBe('Production');
    expect(new Date(createdAt).toISOString()).toBe(createdAt);
    const row = await app.deps.db('api_keys').where({ id }).first();
    expect(row.key_hash).toBe(sha256(key));
    expect(JSON.stringify(row)).not.toContain(key.slice(9));
    expect(row.operator_id).toBe(alice.operatorId);
  });

  it('list shows this operator’s keys with hashes only', async () => {
    const created = await createApiKey(app.url, alice, 'listed');
    const response = await http(keysUrl(), { token: alice.accessToken });
    expect(response.status).toBe(200);
    const record = response.body.data.find((item: { id: string }) => item.id === created.id);
    expect(record).toEqual({
      id: created.id,
      operatorId: alice.operatorId,
      keyHash: sha256(created.key),
      label: 'listed',
      createdAt: expect.any(String),
      lastUsedAt: null,
      revoked: false,
      mcp_enabled: false,
      mcp_workflow_allowlist: null,
    });
    expect(response.text).not.toContain(created.key);
    expect(response.body.data.every((item: { operatorId: string }) => item.operatorId === alice.operatorId)).toBe(true);
  });

  it('an API key authenticates key management for its own organisation', async () => {
    const key = await createApiKey(app.url, alice);
    const response = await http(keysUrl(), { token: key.key, body: { operatorId: alice.operatorId, label: 'from key' } });
    expect(response.status).toBe(201);
  });

  it('rename replaces the label', async () => {
    const key = await createApiKey(app.url, alice, 'old');
    const response = await http(keysUrl(), { method: 'PATCH', token: alice.accessToken, body: { id: key.id, label: 'new' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: 'Key renamed' });
    expect((await app.deps.db('api_keys').where({ id: key.id }).first()).label).toBe('new');
  });

  it('revoke keeps the record; the revoked key fails authentication; hard delete removes it', async () => {
    const owner = await signupOperator(app.url);
    const keep = await createApiKey(app.url, owner);
    const drop = await createApiKey(app.url, owner);
    const revoke = await http(`${keysUrl()}?id=${drop.id}`, { method: 'DELETE', token: owner.accessToken });
    expect(revoke.status).toBe(200);
    expect(revoke.body).toEqual({ success: true, message: 'Key revoked' });
    const row = await app.deps.db('api_keys').where({ id: drop.id }).first();
    expect(row.revoked).toBe(true);

    const denied = await http(keysUrl(), { token: drop.key });
    expect(denied.status).toBe(401);
    expect(denied.body).toEqual({ success: false, error: 'Credentials have been revoked' });
    expect((await http(keysUrl(), { token: keep.key })).status).toBe(200);

    const hard = await http(`${keysUrl()}?id=${drop.id}&hard=true`, { method: 'DELETE', token: owner.accessToken });
    expect(hard.status).toBe(200);
    expect(hard.body).toEqual({ success: true, message: 'Key deleted' });
    expect(await app.deps.db('api_keys').where({ id: drop.id }).first()).toBeUndefined();
    expect((await http(`${keysUrl()}?id=${drop.id}&hard=true`, { method: 'DELETE', token: owner.accessToken })).status).toBe(404);
  });

  it('two concurrent revocations of an operator’s last two keys leave one active', async () => {
    const owner = await signupOperator(app.url);
    const keys = await Promise.all([createApiKey(app.url, owner), createApiKey(app.url, owner)]);
    const results = await Promise.all(keys.map((key) => http(`${keysUrl()}?id=${key.id}`, { method: 'DELETE', token: owner.accessToken })));
    expect(results.map((result) => result.status).sort()).toEqual([200, 400]);
    const active = await app.deps.db('api_keys').where({ operator_id: owner.operatorId, revoked: false });
    expect(active).toHaveLength(1);
  });

  it('lastUsedAt is recorded after a key is used, without a write per request', async () => {
    const key = await createApiKey(app.url, alice, 'used');
    for (let i = 0; i < 3; i += 1) expect((await http(keysUrl(), { token: key.key })).status).toBe(200);
    let lastUsedAt: Date | null = null;
    for (let attempt = 0; attempt < 50 && !lastUsedAt; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      lastUsedAt = (await app.deps.db('api_keys').where({ id: key.id }).first()).last_used_at;
    }
    expect(lastUsedAt).toBeInstanceOf(Date);
    expect(Date.now() - lastUsedAt!.getTime()).toBeLessThan(30_000);
  });
});

describe('MCP settings (PATCH /api-keys/:id/mcp)', () => {
  it('new keys start disabled; the flag and allowlist can be set and cleared', async () => {
    const key = await createApiKey(app.url, alice);
    const url = `${keysUrl()}/${key.id}/mcp`;
    const [a, b] = await Promise.all(['Tool A', 'Tool B'].map((name) => createWorkflow(app.url, alice.accessToken, toolAutomation(name, []))));
    const enable = await http(url, { method: 'PATCH', token: alice.accessToken, body: { mcp_enabled: true, mcp_workflow_allowlist: [a!.id, b!.id] } });
    expect(enable.status).toBe(200);
    expect(enable.body).toEqual({ success: true, data: { id: key.id, mcp_enabled: true, mcp_workflow_allowlist: [a!.id, b!.id] } });
    const clear = await http(url, { method: 'PATCH', token: alice.accessToken, body: { mcp_workflow_allowlist: null } });
    expect(clear.body.data).toEqual({ id: key.id, mcp_enabled: true, mcp_workflow_allowlist: null });
    const row = await app.deps.db('api_keys').where({ id: key.id }).first();
    expect(row.mcp_enabled).toBe(true);
    expect(row.mcp_automation_allowlist).toBeNull();
  });

  it('400 for invalid settings, naming the field', async () => {
    const key = await createApiKey(app.url, alice);
    const response = await http(`${keysUrl()}/${key.id}/mcp`, { method: 'PATCH', token: alice.accessToken, body: { mcp_enabled: 'yes' } });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain('mcp_enabled');
  });
});

describe('tenant isolation', () => {
  it('operator B never sees or touches operator A’s keys', async () => {
    const aliceKey = await createApiKey(app.url, alice, 'alice-only');
    const list = await http(keysUrl(), { token: bob.accessToken });
    expect(list.body.data.some((item: { id: string }) => item.id === aliceKey.id)).toBe(false);

    const attempts = [
      http(keysUrl(), { method: 'PATCH', token: bob.accessToken, body: { id: aliceKey.id, label: 'pwned' } }),
      http(`${keysUrl()}?id=${aliceKey.id}`, { method: 'DELETE', token: bob.accessToken }),
      http(`${keysUrl()}?id=${aliceKey.id}&hard=true`, { method: 'DELETE', token: bob.accessToken }),
      http(`${keysUrl()}/${aliceKey.id}/mcp`, { method: 'PATCH', token: bob.accessToken, body: { mcp_enabled: true } }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, error: 'Key not found' });
    }
    const row = await app.deps.db('api_keys').where({ id: aliceKey.id }).first();
    expect(row).toMatchObject({ label: 'alice-only', revoked: false, mcp_enabled: false });
  });
});
