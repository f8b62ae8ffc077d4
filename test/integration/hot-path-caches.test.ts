import { IGAMING_TEMPLATE_ID } from '../../core/templates';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createApiKey, signupOperator } from '../helpers/identity';
import { addMemberAndSignIn } from '../helpers/members';
import { startProvider, type TestProvider } from '../helpers/providerServer';
import { eventually } from '../helpers/eventually';

/**
 * API keys, members, operator settings and MCP tools are answered from memory on every instance; a change made through
 * any instance — or straight in the database — must reach the others within moments (LISTEN/NOTIFY), and
 * the instance that made it at once.
 */
let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  // A TTL far past the test's length: what the cache answers is down to the change feed alone.
  const longTtl = { CACHE_TTL_MS: String(10 * 60_000) };
  [first, second] = await Promise.all([startTestApp(longTtl), startTestApp(longTtl)]);
});
afterAll(async () => {
  await Promise.all([first.close(), second.close()]);
});

const readSettings = (app: TestApp, key: string) => http(`${app.url}/operator-data-api/settings`, { token: key });

describe('cached API keys', () => {
  it('a key revoked through one instance is refused by the other, and by the first at once', async () => {
    const owner = await signupOperator(first.url);
    const [kept, revoked] = [await createApiKey(first.url, owner, 'kept'), await createApiKey(first.url, owner, 'revoked')];
    expect((await readSettings(second, revoked.key)).status).toBe(200);
    expect((await readSettings(first, revoked.key)).status).toBe(200);

    const revoke = await http(`${first.url}/api-keys?id=${revoked.id}`, { method: 'DELETE', token: owner.accessToken });
    expect(revoke.status).toBe(200);
    expect(await readSettings(first, revoked.key)).toMatchObject({
      status: 401,
      body: { success: false, error: { code: 'UNAUTHORIZED', message: 'API key has been revoked' } },
    });
    await eventually(async () => (await readSettings(second, revoked.key)).status === 401);
    expect((await readSettings(second, kept.key)).status).toBe(200);
  });

  it('a change made outside the API (a revocation in SQL) reaches every instance', async () => {
    const owner = await signupOperator(first.url);
    const key = await createApiKey(first.url, owner);
    expect((await readSettings(first, key.key)).status).toBe(200);
    expect((await readSettings(second, key.key)).status).toBe(200);
    await first.deps.db('api_keys').where({ id: key.id }).update({ revoked: true });
    await eventually(async () => (await readSettings(first, key.key)).status === 401 && (await readSettings(second, key.key)).status === 401);
  });

  it('MCP access switched on through one instance is seen by the other', async () => {
    const owner = await signupOperator(first.url);
    const key = await createApiKey(first.url, owner);
    const ping = (app: TestApp) => http(`${app.url}/mcp-server`, { token: key.key, body: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    expect((await ping(second)).status).toBe(403);
    const enable = await http(`${first.url}/api-keys/${key.id}/mcp`, { method: 'PATCH', token: owner.accessToken, body: { mcp_enabled: true } });
    expect(enable.status).toBe(200);
    expect((await ping(first)).status).toBe(200);
    await eventually(async () => (await ping(second)).status === 200);
  });
});

describe('cached members', () => {
  it('a member suspended through one instance is signed out on the other', async () => {
    const owner = await signupOperator(first.url);
    const member = await addMemberAndSignIn(first.deps.db, first.url, owner.operatorId, 'member');
    const members = (app: TestApp, token: string) => http(`${app.url}/platform-api/operators/me/members`, { token });
    expect((await members(second, member.accessToken)).status).toBe(200);
    const suspend = await http(`${first.url}/platform-api/operators/me/members/${member.memberId}`, { method: 'DELETE', token: owner.accessToken });
    expect(suspend.status).toBe(200);
    expect((await members(first, member.accessToken)).status).toBe(401);
    await eventually(async () => (await members(second, member.accessToken)).status === 401);
  });
});

describe('cached operator settings', () => {
  it('a template selected through one instance lets the other take events', async () => {
    const owner = await signupOperator(first.url);
    const key = await createApiKey(first.url, owner);
    const player = { entityType: 'player', externalId: 'p-1', data: {} };
    const create = (app: TestApp) => http(`${app.url}/operator-data-api/entities`, { token: key.key, body: player });
    expect(await create(second)).toMatchObject({ status: 400, body: { error: { code: 'TEMPLATE_NOT_CONFIGURED' } } });
    expect((await http(`${first.url}/operator-data-api/settings`, { method: 'PUT', token: key.key, body: { templateId: IGAMING_TEMPLATE_ID } })).status).toBe(
      200,
    );
    expect((await create(first)).status).toBe(201);
    await eventually(async () => (await create(second)).status < 400);
  });
});

/** Revokes a key with its invalidation trigger off for the statement: no instance hears of it. */
const revokeUnnoticed = (app: TestApp, keyId: string) =>
  app.deps.db.transaction(async (trx) => {
    await trx.raw('ALTER TABLE api_keys DISABLE TRIGGER api_keys_invalidate_cache');
    await trx('api_keys').where({ id: keyId }).update({ revoked: true });
    await trx.raw('ALTER TABLE api_keys ENABLE TRIGGER api_keys_invalidate_cache');
  });

describe('the cache itself', () => {
  it('answers from memory for at most CACHE_TTL_MS when a change is not notified', async () => {
    // Long enough that the unnoticed revocation (an ALTER TABLE waiting for its lock on a loaded machine) fits in it.
    const short = await startTestApp({ CACHE_TTL_MS: '5000' });
    try {
      const owner = await signupOperator(short.url);
      const key = await createApiKey(short.url, owner);
      await eventually(async () => short.deps.caches.feed.live);
      expect((await readSettings(short, key.key)).status).toBe(200);
      await revokeUnnoticed(short, key.id);
      expect((await readSettings(short, key.key)).status).toBe(200);
      await eventually(async () => (await readSettings(short, key.key)).status === 401, 10_000);
    } finally {
      await short.close();
    }
  });

  it('reads through on every request with CACHE_TTL_MS=0', async () => {
    const uncached = await startTestApp({ CACHE_TTL_MS: '0' });
    try {
      const owner = await signupOperator(uncached.url);
      const key = await createApiKey(uncached.url, owner);
      expect((await readSettings(uncached, key.key)).status).toBe(200);
      await revokeUnnoticed(uncached, key.id);
      expect((await readSettings(uncached, key.key)).status).toBe(401);
    } finally {
      await uncached.close();
    }
  });
});

describe('cached MCP tools', () => {
  let supplier: TestProvider;
  beforeAll(async () => {
    supplier = await startProvider((request) => ({ status: 200, body: { path: request.path } }));
  });
  afterAll(() => supplier.close());

  /** The path the tool's one `http_request` reached: which definition the call ran. */
  const callPath = async (app: TestApp, key: string, name: string): Promise<string | undefined> => {
    const answer = await http(`${app.url}/mcp-server`, { token: key, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } } });
    if (answer.body.error) return answer.body.error.message as string;
    return (JSON.parse(answer.body.result.content[0].text) as { body: { path: string } }).body.path;
  };
  /** A tool whose one step sends a request to `path`; `padding` bytes of body make its definition that much larger. */
  const definition = (path: string, padding = 0) => ({
    name: 'Tell the supplier',
    active: true,
    mcp_exposed: true,
    nodes: [
      { id: 'start', type: 'trigger.manual', params: {} },
      {
        id: 'tell',
        type: 'action.http_request',
        params: { method: padding > 0 ? 'POST' : 'GET', url: `${supplier.url}${path}`, ...(padding > 0 ? { body: { padding: 'x'.repeat(padding) } } : {}) },
      },
    ],
    edges: [{ from: 'start', to: 'tell' }],
  });

  async function operatorWithTool(path: string, padding = 0) {
    const owner = await signupOperator(first.url);
    const key = await createApiKey(first.url, owner);
    expect((await http(`${first.url}/api-keys/${key.id}/mcp`, { method: 'PATCH', token: owner.accessToken, body: { mcp_enabled: true } })).status).toBe(200);
    const created = await http(`${first.url}/workflows-api/workflows`, { token: key.key, body: definition(path, padding) });
    expect(created.status).toBe(201);
    const workflow = created.body.data as { id: string; mcp_tool_name: string };
    await eventually(async () => first.deps.caches.feed.live && second.deps.caches.feed.live);
    expect(await callPath(first, key.key, workflow.mcp_tool_name)).toBe(path);
    expect(await callPath(second, key.key, workflow.mcp_tool_name)).toBe(path);
    return { key: key.key, workflow, cacheKey: `${owner.operatorId}:${workflow.mcp_tool_name}` };
  }

  /**
   * Calls the tool on the first instance until it holds it: a load is not kept when any invalidation (any operator's,
   * from any suite sharing the database) lands while it reads, or when the tool's own creation is heard after it.
   */
  const heldByFirst = async (tool: Awaited<ReturnType<typeof operatorWithTool>>) => {
    await eventually(
      async () => (await callPath(first, tool.key, tool.workflow.mcp_tool_name)) !== undefined && first.deps.caches.mcpTools.has(tool.cacheKey),
      30_000,
    );
  };

  /** Rewrites a tool's URL with its invalidation trigger off for the statement: no instance hears of it. */
  const retargetUnnoticed = (workflowId: string, path: string, padding = 0) =>
    first.deps.db.transaction(async (trx) => {
      await trx.raw('ALTER TABLE automations DISABLE TRIGGER automations_invalidate_cache');
      await trx('automations')
        .where({ id: workflowId })
        .update({ nodes: JSON.stringify(definition(path, padding).nodes) });
      await trx.raw('ALTER TABLE automations ENABLE TRIGGER automations_invalidate_cache');
    });

  it('a tool changed through one instance runs as changed there, and on the other within moments; deleted, it is unknown', async () => {
    const { key, workflow } = await operatorWithTool('/v1');
    const put = await http(`${first.url}/workflows-api/workflows/${workflow.id}`, { method: 'PUT', token: key, body: definition('/v2') });
    expect(put.status).toBe(200);
    expect(await callPath(first, key, workflow.mcp_tool_name)).toBe('/v2');
    await eventually(async () => (await callPath(second, key, workflow.mcp_tool_name)) === '/v2');

    expect((await http(`${first.url}/workflows-api/workflows/${workflow.id}`, { method: 'DELETE', token: key })).status).toBe(200);
    const unknown = `Unknown tool: ${workflow.mcp_tool_name}`;
    expect(await callPath(first, key, workflow.mcp_tool_name)).toBe(unknown);
    await eventually(async () => (await callPath(second, key, workflow.mcp_tool_name)) === unknown);
  });

  it('a tool switched off in SQL is unknown to every instance within moments', async () => {
    const { key, workflow } = await operatorWithTool('/v1');
    await first.deps.db('automations').where({ id: workflow.id }).update({ mcp_exposed: false });
    const unknown = `Unknown tool: ${workflow.mcp_tool_name}`;
    await eventually(
      async () => (await callPath(first, key, workflow.mcp_tool_name)) === unknown && (await callPath(second, key, workflow.mcp_tool_name)) === unknown,
    );
  });

  it('holds a tool whose definition fits its budget, and reads a larger one at every call', async () => {
    const small = await operatorWithTool('/small');
    await heldByFirst(small);
    await retargetUnnoticed(small.workflow.id, '/small-changed');
    expect(await callPath(first, small.key, small.workflow.mcp_tool_name)).toBe('/small');

    const large = await operatorWithTool('/large', 40 * 1024);
    await retargetUnnoticed(large.workflow.id, '/large-changed', 40 * 1024);
    expect(await callPath(first, large.key, large.workflow.mcp_tool_name)).toBe('/large-changed');
    expect(first.deps.caches.mcpTools.has(large.cacheKey)).toBe(false);
  });
});
