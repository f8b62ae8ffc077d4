import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createApiKey, signupOperator } from '../helpers/identity';
import { mcpOperator, mcpPost, rpc, type McpOperator } from '../helpers/mcp';

let app: TestApp;
let alice: McpOperator;
let bob: McpOperator;

beforeAll(async () => {
  app = await startTestApp();
  [alice, bob] = await Promise.all([mcpOperator(app.url), mcpOperator(app.url)]);
});
afterAll(() => app.close());

const serviceError = (id: number | string | null, code: string) => ({ jsonrpc: '2.0', id, error: { code: -32001, message: `code: ${code}` } });
const protocolError = (id: number | string | null, code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } });

describe('authentication (spec 5 rule 4, 7.6)', () => {
  it('AUTH_MISSING without an Authorization header (401), also on the legacy path', async () => {
    const ping = rpc('ping');
    const response = await mcpPost(app.url, undefined, ping);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(serviceError(ping.id, 'AUTH_MISSING'));
    const legacy = await mcpPost(app.url, undefined, ping, { path: `/mcp-server/${bob.operatorId}` });
    expect([legacy.status, legacy.body]).toEqual([401, serviceError(ping.id, 'AUTH_MISSING')]);
  });

  it.each([
    ['a Basic credential', 'Basic dXNlcjpwYXNz'],
    ['Bearer without a token', 'Bearer'],
    ['a non-live prefix', `Bearer svc_test_${'a'.repeat(64)}`],
    ['a live prefix with too few hex characters', `Bearer svc_live_${'a'.repeat(63)}`],
    ['a live prefix with non-hex characters', `Bearer svc_live_${'g'.repeat(64)}`],
    ['two tokens', `Bearer svc_live_${'a'.repeat(64)} extra`],
  ])('AUTH_INVALID_FORMAT for %s (401)', async (_label, authorization) => {
    const ping = rpc('ping');
    const response = await mcpPost(app.url, undefined, ping, { headers: { authorization } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(serviceError(ping.id, 'AUTH_INVALID_FORMAT'));
  });

  it('AUTH_INVALID_FORMAT for a session JWT: MCP takes API keys only', async () => {
    const ping = rpc('ping');
    const response = await mcpPost(app.url, alice.accessToken, ping);
    expect([response.status, response.body]).toEqual([401, serviceError(ping.id, 'AUTH_INVALID_FORMAT')]);
  });

  it('AUTH_INVALID for a well-formed key nobody issued (401)', async () => {
    const ping = rpc('ping');
    const response = await mcpPost(app.url, `svc_live_${'0'.repeat(64)}`, ping);
    expect([response.status, response.body]).toEqual([401, serviceError(ping.id, 'AUTH_INVALID')]);
  });

  it('AUTH_REVOKED for a revoked key (401), before MCP_NOT_ENABLED', async () => {
    const operator = await signupOperator(app.url);
    const [, doomed] = [await createApiKey(app.url, operator, 'keep'), await createApiKey(app.url, operator, 'doomed')];
    const revoke = await http(`${app.url}/api-keys?id=${doomed.id}`, { method: 'DELETE', token: operator.accessToken });
    expect(revoke.status).toBe(200);
    const ping = rpc('ping');
    const response = await mcpPost(app.url, doomed.key, ping);
    expect([response.status, response.body]).toEqual([401, serviceError(ping.id, 'AUTH_REVOKED')]);
  });

  it('MCP_NOT_ENABLED for a valid key without mcp_enabled (403), before AUTH_OPERATOR_MISMATCH', async () => {
    const operator = await signupOperator(app.url);
    const { key } = await createApiKey(app.url, operator);
    const ping = rpc('ping');
    const response = await mcpPost(app.url, key, ping);
    expect([response.status, response.body]).toEqual([403, serviceError(ping.id, 'MCP_NOT_ENABLED')]);
    const legacy = await mcpPost(app.url, key, ping, { path: `/mcp-server/${bob.operatorId}` });
    expect([legacy.status, legacy.body]).toEqual([403, serviceError(ping.id, 'MCP_NOT_ENABLED')]);
  });

  it('AUTH_OPERATOR_MISMATCH on the legacy path with another operator (403); its own operator id works', async () => {
    const ping = rpc('ping');
    const mismatch = await mcpPost(app.url, alice.key, ping, { path: `/mcp-server/${bob.operatorId}` });
    expect([mismatch.status, mismatch.body]).toEqual([403, serviceError(ping.id, 'AUTH_OPERATOR_MISMATCH')]);
    const garbage = await mcpPost(app.url, alice.key, ping, { path: '/mcp-server/not-an-operator' });
    expect([garbage.status, garbage.body]).toEqual([403, serviceError(ping.id, 'AUTH_OPERATOR_MISMATCH')]);
    const own = await mcpPost(app.url, alice.key, ping, { path: `/functions/v1/mcp-server/${alice.operatorId}` });
    expect([own.status, own.body]).toEqual([200, { jsonrpc: '2.0', id: ping.id, result: {} }]);
  });

  it('disabling MCP on the key takes effect on the next call', async () => {
    const operator = await mcpOperator(app.url);
    expect((await mcpPost(app.url, operator.key, rpc('ping'))).status).toBe(200);
    await http(`${app.url}/api-keys/${operator.keyId}/mcp`, { method: 'PATCH', token: operator.accessToken, body: { mcp_enabled: false } });
    const ping = rpc('ping');
    expect((await mcpPost(app.url, operator.key, ping)).body).toEqual(serviceError(ping.id, 'MCP_NOT_ENABLED'));
  });
});

describe('JSON-RPC errors (spec 7.6; HTTP statuses per DESIGN.md)', () => {
  it('-32700 parse error with HTTP 400 for a body that is not JSON, or no body', async () => {
    const broken = await http(`${app.url}/mcp-server`, {
      method: 'POST',
      token: alice.key,
      rawBody: '{"jsonrpc":"2.0",',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual(protocolError(null, -32700, 'Request body is not valid JSON'));
    const empty = await http(`${app.url}/mcp-server`, { method: 'POST', token: alice.key, headers: { 'content-type': 'application/json' } });
    expect([empty.status, empty.body]).toEqual([400, protocolError(null, -32700, 'Parse error: the body is empty')]);
  });

  it.each<[string, unknown, number | string | null, string]>([
    ['a missing jsonrpc', { id: 1, method: 'ping' }, 1, 'jsonrpc must be "2.0"'],
    ['jsonrpc 1.0', { jsonrpc: '1.0', id: 'a', method: 'ping' }, 'a', 'jsonrpc must be "2.0"'],
    ['a missing method', { jsonrpc: '2.0', id: 2 }, 2, 'method is required'],
    ['a numeric method', { jsonrpc: '2.0', id: 3, method: 42 }, 3, 'method must be a non-empty string'],
    ['an object id', { jsonrpc: '2.0', id: { x: 1 }, method: 'ping' }, null, 'id must be a string or a number'],
    ['a null id', { jsonrpc: '2.0', id: null, method: 'ping' }, null, 'id must be a string or a number'],
    ['string params', { jsonrpc: '2.0', id: 4, method: 'ping', params: 'x' }, 4, 'params must be an object'],
    ['a batch', [{ jsonrpc: '2.0', id: 5, method: 'ping' }], null, 'batch requests are not supported'],
    ['a JSON string', 'ping', null, 'the body must be a JSON-RPC 2.0 object'],
  ])('-32600 invalid request with HTTP 400 for %s', async (_label, body, id, reason) => {
    const response = await mcpPost(app.url, alice.key, body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(protocolError(id, -32600, `Invalid Request: ${reason}`));
  });

  it('-32601 method not found with HTTP 200', async () => {
    const request = rpc('resources/list');
    const response = await mcpPost(app.url, alice.key, request);
    expect([response.status, response.body]).toEqual([200, protocolError(request.id, -32601, 'Method not found: resources/list')]);
  });

  it('-32602 invalid params with HTTP 200', async () => {
    const noVersion = rpc('initialize', { capabilities: {} });
    expect((await mcpPost(app.url, alice.key, noVersion)).body).toEqual(
      protocolError(noVersion.id, -32602, 'Invalid params: protocolVersion must be a string'),
    );
    const arrayParams = rpc('tools/list', ['x']);
    const response = await mcpPost(app.url, alice.key, arrayParams);
    expect([response.status, response.body]).toEqual([200, protocolError(arrayParams.id, -32602, 'Invalid params: params must be an object')]);
    const noName = rpc('tools/call', { arguments: {} });
    expect((await mcpPost(app.url, alice.key, noName)).body).toEqual(protocolError(noName.id, -32602, 'Invalid params: name must be a non-empty string'));
    const badToken = rpc('tools/call', { name: 'x', _meta: { progressToken: { a: 1 } } });
    expect((await mcpPost(app.url, alice.key, badToken)).body).toEqual(
      protocolError(badToken.id, -32602, 'Invalid params: _meta.progressToken must be a string or a number'),
    );
  });

  it('a non-JSON content type is refused (415) in the JSON-RPC shape', async () => {
    const response = await http(`${app.url}/mcp-server`, { method: 'POST', token: alice.key, rawBody: 'ping', headers: { 'content-type': 'text/plain' } });
    expect([response.status, response.body]).toEqual([415, serviceError(null, 'UNSUPPORTED_MEDIA_TYPE')]);
  });
});

describe('transport', () => {
  it('GET /mcp-server without Accept: text/event-stream is 406 (it only streams); DELETE is 405', async () => {
    const get = await http(`${app.url}/mcp-server`, { token: alice.key, headers: { accept: 'application/json' } });
    expect([get.status, get.body]).toEqual([406, serviceError(null, 'NOT_ACCEPTABLE')]);
    const remove = await http(`${app.url}/mcp-server`, { method: 'DELETE', token: alice.key });
    expect([remove.status, remove.body]).toEqual([405, serviceError(null, 'METHOD_NOT_ALLOWED')]);
  });

  it('answers OPTIONS preflight on every MCP route with the MCP headers allowed', async () => {
    for (const path of ['/mcp-server', '/functions/v1/mcp-server', `/mcp-server/${alice.operatorId}`, '/mcp-server/events']) {
      const response = await fetch(`${app.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://agent.example',
          'access-control-request-method': path.endsWith('events') ? 'GET' : 'POST',
          'access-control-request-headers': 'authorization,content-type,mcp-session-id,mcp-protocol-version',
        },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('https://agent.example');
      const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase();
      for (const header of ['authorization', 'content-type', 'mcp-session-id', 'mcp-protocol-version']) expect(allowed).toContain(header);
    }
    const initialize = await mcpPost(app.url, alice.key, rpc('initialize', { protocolVersion: '2025-06-18' }), {
      headers: { origin: 'https://agent.example' },
    });
    expect(initialize.headers.get('access-control-allow-origin')).toBe('https://agent.example');
    expect((initialize.headers.get('access-control-expose-headers') ?? '').toLowerCase()).toContain('mcp-session-id');
  });

  it('MCP-Protocol-Version: a supported revision passes, anything else is 400 invalid request', async () => {
    const ok = rpc('ping');
    expect((await mcpPost(app.url, alice.key, ok, { headers: { 'mcp-protocol-version': '2025-06-18' } })).body).toEqual({
      jsonrpc: '2.0',
      id: ok.id,
      result: {},
    });
    const bad = rpc('ping');
    const response = await mcpPost(app.url, alice.key, bad, { headers: { 'mcp-protocol-version': '1999-01-01' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(
      protocolError(bad.id, -32600, 'Unsupported MCP-Protocol-Version: 1999-01-01 (supported: 2025-06-18, 2025-03-26, 2024-11-05, 2025-11-25, 2026-07-28)'),
    );
  });

  it('a malformed Mcp-Session-Id is 400 invalid request', async () => {
    const ping = rpc('ping');
    const response = await mcpPost(app.url, alice.key, ping, { headers: { 'mcp-session-id': 'has spaces in it' } });
    expect([response.status, response.body]).toEqual([400, protocolError(ping.id, -32600, 'Mcp-Session-Id must be 1 to 128 visible ASCII characters')]);
  });

  it('refuses a browser Origin outside ALLOWED_ORIGINS (403) and accepts a listed one', async () => {
    const strict = await startTestApp({ ALLOWED_ORIGINS: 'https://dash.example' });
    try {
      const ping = rpc('ping');
      const evil = await mcpPost(strict.url, alice.key, ping, { headers: { origin: 'https://evil.example' } });
      expect([evil.status, evil.body]).toEqual([403, serviceError(ping.id, 'ORIGIN_NOT_ALLOWED')]);
      const events = await http(`${strict.url}/mcp-server/events?session=s`, { token: alice.key, headers: { origin: 'https://evil.example' } });
      expect([events.status, events.body]).toEqual([403, serviceError(null, 'ORIGIN_NOT_ALLOWED')]);
      const good = await mcpPost(strict.url, alice.key, ping, { headers: { origin: 'https://dash.example' } });
      expect(good.status).toBe(200);
      expect(good.headers.get('access-control-allow-origin')).toBe('https://dash.example');
    } finally {
      await strict.close();
    }
  });

  it('rate class mcp: over the limit is 429 RATE_LIMITED with Retry-After', async () => {
    const limited = await startTestApp({ RATE_LIMIT_MCP: '2' });
    try {
      const operator = await mcpOperator(limited.url);
      for (let i = 0; i < 2; i += 1) expect((await mcpPost(limited.url, operator.key, rpc('ping'))).status).toBe(200);
      const ping = rpc('ping');
      const response = await mcpPost(limited.url, operator.key, ping);
      expect([response.status, response.body]).toEqual([429, serviceError(ping.id, 'RATE_LIMITED')]);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});

describe('lifecycle methods', () => {
  it('initialize answers 2025-06-18, tools with listChanged and the service name, and issues a session id of 256 random bits', async () => {
    const request = rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test-client', version: '1.0.0' } });
    const response = await mcpPost(app.url, alice.key, request);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      jsonrpc: '2.0',
      id: request.id,
      result: { protocolVersion: '2025-06-18', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'operator-platform', version: '0.1.0' } },
    });
    const sessionId = response.headers.get('mcp-session-id');
    expect(sessionId).toMatch(/^mcps_[A-Za-z0-9_-]{43}$/);
    const again = await mcpPost(app.url, alice.key, rpc('initialize', { protocolVersion: '2024-11-05' }));
    expect(again.body.result.protocolVersion).toBe('2025-06-18');
    expect(again.headers.get('mcp-session-id')).not.toBe(sessionId);
  });

  it('notifications/initialized, any other notification and a client response get 202 with no body', async () => {
    for (const message of [
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      { jsonrpc: '2.0', id: 9, result: {} },
    ]) {
      const response = await mcpPost(app.url, alice.key, message);
      expect(response.status).toBe(202);
      expect(response.text).toBe('');
      expect(response.headers.get('content-type')).toBeNull();
    }
  });

  it('ping answers an empty result with the request id (string ids too)', async () => {
    const response = await mcpPost(app.url, alice.key, { jsonrpc: '2.0', id: 'abc', method: 'ping' });
    expect([response.status, response.body]).toEqual([200, { jsonrpc: '2.0', id: 'abc', result: {} }]);
    expect(response.headers.get('content-type')).toContain('application/json');
  });
});
