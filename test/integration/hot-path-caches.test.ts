import { IGAMING_TEMPLATE_ID } from '../../core/templates';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createApiKey, signupOperator } from '../helpers/identity';
import { addMemberAndSignIn } from '../helpers/members';

/**
 * API keys, members, operator settings and MCP tools are answered from memory on every instance; a change made through
 * any instance — or straight in the database — must reach the others within moments (LISTEN/NOTIFY), and
 * the instance that made it at once.
 */
let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  [first, second] = await Promise.all([startTestApp(), startTestApp()]);
});
afterAll(async () => {
  await Promise.all([first.close(), second.close()]);
});

/** Polls until `check` holds (another instance hears of a change through a notification, not at once). */
async function eventually(check: () => Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

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
    const short = await startTestApp({ CACHE_TTL_MS: '1500' });
    try {
      const owner = await signupOperator(short.url);
      const key = await createApiKey(short.url, owner);
      await eventually(async () => short.deps.caches.feed.live);
      expect((await readSettings(short, key.key)).status).toBe(200);
      await revokeUnnoticed(short, key.id);
      expect((await readSettings(short, key.key)).status).toBe(200);
      await eventually(async () => (await readSettings(short, key.key)).status === 401, 3000);
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
  const rpc = (app: TestApp, key: string, method: string, params: Record<string, unknown> = {}) =>
    http(`${app.url}/mcp-server`, { token: key, body: { jsonrpc: '2.0', id: 1, method, params } });
  const described = async (app: TestApp, key: string) =>
    ((await rpc(app, key, 'tools/list')).body.result.tools as Array<{ name: string; description: string }>).map((tool) => `${tool.name}: ${tool.description}`);

  async function operatorWithTool() {
    const owner = await signupOperator(first.url);
    const key = await createApiKey(first.url, owner);
    expect((await http(`${first.url}/api-keys/${key.id}/mcp`, { method: 'PATCH', token: owner.accessToken, body: { mcp_enabled: true } })).status).toBe(200);
    const body = (description: string, seconds: number) => ({
      name: 'Hold',
      description,
      active: true,
      mcp_exposed: true,
      nodes: [
        { id: 'start', type: 'trigger.manual', params: {} },
        { id: 'wait', type: 'action.delay', params: { seconds } },
      ],
      edges: [{ from: 'start', to: 'wait' }],
    });
    const created = await http(`${first.url}/workflows-api/workflows`, { token: key.key, body: body('first', 2) });
    expect(created.status).toBe(201);
    const workflow = created.body.data as { id: string; mcp_tool_name: string };
    await eventually(async () => first.deps.caches.feed.live && second.deps.caches.feed.live);
    expect(await described(first, key.key)).toEqual([`${workflow.mcp_tool_name}: first`]);
    expect(await described(second, key.key)).toEqual([`${workflow.mcp_tool_name}: first`]);
    return { owner, key, workflow, body };
  }

  it('a tool changed through one instance is listed and run as changed by that instance, and by the other within moments', async () => {
    const { key, workflow, body } = await operatorWithTool();
    const put = await http(`${first.url}/workflows-api/workflows/${workflow.id}`, { method: 'PUT', token: key.key, body: body('second', 1) });
    expect(put.status).toBe(200);
    expect(await described(first, key.key)).toEqual([`${workflow.mcp_tool_name}: second`]);
    const call = await rpc(first, key.key, 'tools/call', { name: workflow.mcp_tool_name, arguments: {} });
    expect(call.body.result).toMatchObject({ isError: false, content: [{ type: 'text', text: JSON.stringify({ waitedSeconds: 1 }) }] });
    await eventually(async () => (await described(second, key.key))[0] === `${workflow.mcp_tool_name}: second`);

    const removed = await http(`${first.url}/workflows-api/workflows/${workflow.id}`, { method: 'DELETE', token: key.key });
    expect(removed.status).toBe(200);
    expect(await rpc(first, key.key, 'tools/call', { name: workflow.mcp_tool_name, arguments: {} })).toMatchObject({
      status: 200,
      body: { error: { code: -32602, message: `Unknown tool: ${workflow.mcp_tool_name}` } },
    });
    await eventually(async () => (await described(second, key.key)).length === 0);
  });

  it('a tool switched off and on in SQL reaches every instance', async () => {
    const { key, workflow } = await operatorWithTool();
    await first.deps.db('workflows').where({ id: workflow.id }).update({ mcp_exposed: false });
    await eventually(async () => (await described(first, key.key)).length === 0 && (await described(second, key.key)).length === 0);
    await first.deps.db('workflows').where({ id: workflow.id }).update({ mcp_exposed: true });
    await eventually(async () => (await described(first, key.key)).length === 1 && (await described(second, key.key)).length === 1);
  });
});
