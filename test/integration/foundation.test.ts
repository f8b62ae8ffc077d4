import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { signupOperator } from '../helpers/identity';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ BODY_LIMIT_BYTES: '2048' });
});
afterAll(() => app.close());

describe('GET /healthz', () => {
  it('200 { status: "ok" } when PostgreSQL and Temporal answer', async () => {
    const response = await http(`${app.url}/healthz`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', checks: { database: 'ok', temporal: 'ok' } });
  });

  it('503 when the database is unreachable', async () => {
    const broken = await startTestApp({ DATABASE_URL: 'postgres://nobody:nothing@127.0.0.1:1/none' });
    try {
      const response = await http(`${broken.url}/healthz`);
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ status: 'unavailable', checks: { database: 'unavailable', temporal: 'ok' } });
    } finally {
      await broken.close();
    }
  });
});

describe('routing and envelopes', () => {
  it('every function answers at /functions/v1/<fn> and at /<fn>', async () => {
    const owner = await signupOperator(app.url);
    for (const path of ['/api-keys', '/functions/v1/api-keys']) {
      const response = await http(`${app.url}${path}`, { token: owner.accessToken });
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(true);
    }
  });

  it('404 NOT_FOUND for an unknown route, in the coded envelope', async () => {
    for (const path of ['/no-such-function', '/functions/v1/no-such-function/x']) {
      const response = await http(`${app.url}${path}`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'Route not found' } });
    }
  });

  it("an area's name in another case is no route: never a handler without the area's authentication", async () => {
    // @koa/router matches a route case-insensitively but runs an area's middleware only under its prefix's own case.
    for (const path of ['/OPERATOR-DATA-API/entities/p1', '/Workflows-Api/workflows', '/GATEWAY/calls/gwc_1']) {
      const response = await http(`${app.url}${path}`);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
    expect((await http(`${app.url}/operator-data-api/ENTITIES/p1`)).status).toBe(401);
  });

  it('400 for malformed JSON, in each area’s envelope', async () => {
    const coded = await http(`${app.url}/auth/v1/signup`, { rawBody: '{"email":', headers: { 'content-type': 'application/json' }, method: 'POST' });
    expect(coded.status).toBe(400);
    expect(coded.body).toEqual({ success: false, error: { code: 'INVALID_JSON', message: 'Request body is not valid JSON' } });
    const text = await http(`${app.url}/api-keys`, { rawBody: '{nope', headers: { 'content-type': 'application/json' }, method: 'POST' });
    expect(text.status).toBe(400);
    expect(text.body).toEqual({ success: false, error: 'Request body is not valid JSON' });
  });

  it('413 for a body over the limit', async () => {
    const response = await http(`${app.url}/auth/v1/signup`, { body: { padding: 'x'.repeat(4096) } });
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('415 for a non-JSON body', async () => {
    const response = await http(`${app.url}/auth/v1/signup`, {
      method: 'POST',
      rawBody: 'a=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(415);
  });

  it('a request id is generated, or the caller’s is echoed', async () => {
    const generated = await http(`${app.url}/healthz`);
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await http(`${app.url}/healthz`, { headers: { 'x-request-id': 'trace-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-123');
  });

  it('serves the OpenAPI document with the /functions/v1 server', async () => {
    const response = await http(`${app.url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    expect(response.body.servers[0].url).toBe('/functions/v1');
    expect(Object.keys(response.body.paths)).toEqual(
      expect.arrayContaining(['/api-keys', '/api-keys/{id}/mcp', '/auth/v1/signup', '/auth/v1/token', '/healthz']),
    );
  });
});

describe('CORS', () => {
  const preflight = (url: string, origin = 'https://dashboard.example') =>
    fetch(url, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });

  it('answers preflight on every route, known or not, with and without the prefix', async () => {
    for (const path of ['/api-keys', '/functions/v1/api-keys', '/functions/v1/operator-data-api/entities', '/mcp-server']) {
      const response = await preflight(`${app.url}${path}`);
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('https://dashboard.example');
      const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase();
      for (const header of ['authorization', 'content-type', 'idempotency-key', 'mcp-session-id']) expect(allowed).toContain(header);
    }
  });

  it('echoes only allowed origins when ALLOWED_ORIGINS is set', async () => {
    const strict = await startTestApp({ ALLOWED_ORIGINS: 'https://ok.example' });
    try {
      expect((await preflight(`${strict.url}/api-keys`, 'https://ok.example')).headers.get('access-control-allow-origin')).toBe('https://ok.example');
      expect((await preflight(`${strict.url}/api-keys`, 'https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await strict.close();
    }
  });
});
