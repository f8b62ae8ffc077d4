import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, signupOperator } from '../helpers/identity';
import { mcpOperator, openEventStream, type EventStream } from '../helpers/mcp';

let app: TestApp;
let peer: TestApp;

beforeAll(async () => {
  [app, peer] = await Promise.all([startTestApp({ MCP_HEARTBEAT_MS: '100' }), startTestApp({ MCP_HEARTBEAT_MS: '100' })]);
});
afterAll(async () => {
  await Promise.all([app.close(), peer.close()]);
});

const serviceError = (code: string) => ({ jsonrpc: '2.0', id: null, error: { code: -32001, message: `code: ${code}` } });

describe('GET /mcp-server/events protection', () => {
  it('speaks the MCP auth codes', async () => {
    const missing = await openEventStream(app.url, undefined, '?session=s1');
    expect([missing.status, missing.body]).toEqual([401, serviceError('AUTH_MISSING')]);
    const format = await openEventStream(app.url, 'not-a-key', '?session=s1');
    expect([format.status, format.body]).toEqual([401, serviceError('AUTH_INVALID_FORMAT')]);
    const unknown = await openEventStream(app.url, `svc_live_${'f'.repeat(64)}`, '?session=s1');
    expect([unknown.status, unknown.body]).toEqual([401, serviceError('AUTH_INVALID')]);
    const operator = await signupOperator(app.url);
    const { key } = await createApiKey(app.url, operator);
    const disabled = await openEventStream(app.url, key, '?session=s1');
    expect([disabled.status, disabled.body]).toEqual([403, serviceError('MCP_NOT_ENABLED')]);
  });

  it('refuses a malformed or repeated session parameter (400 invalid request)', async () => {
    const operator = await mcpOperator(app.url);
    const repeated = await openEventStream(app.url, operator.key, '?session=a&session=b');
    expect(repeated.status).toBe(400);
    expect(repeated.body.error.code).toBe(-32600);
    const spaced = await openEventStream(app.url, operator.key, `?session=${encodeURIComponent('a b')}`);
    expect(spaced.status).toBe(400);
  });
});

describe('GET /mcp-server/events', () => {
  it('without a session sends one comment frame and closes', async () => {
    const operator = await mcpOperator(app.url);
    const stream = await openEventStream(app.url, operator.key);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    await stream.ended;
    expect(stream.events).toEqual([]);
    expect(stream.comments).toHaveLength(1);
    expect(stream.comments[0]).toMatch(/^no session/);
  });

  it('with a session stays open, announces itself and sends `: ping` heartbeats', async () => {
    const operator = await mcpOperator(app.url);
    const stream = await openEventStream(app.url, operator.key, '?session=heartbeat-1');
    try {
      expect(stream.status).toBe(200);
      expect(stream.contentType).toMatch(/^text\/event-stream/);
      expect(stream.headers.get('cache-control')).toContain('no-cache');
      await stream.waitFor(() => stream.comments.filter((comment) => comment === 'ping').length >= 3, 5000);
      expect(stream.comments[0]).toBe('stream open');
      expect(stream.events).toEqual([]);
    } finally {
      stream.close();
    }
  });
});

describe('concurrent streams per operator (spec 8: 5)', () => {
  async function openMany(url: string, key: string, count: number, prefix: string): Promise<EventStream[]> {
    const streams: EventStream[] = [];
    for (let i = 0; i < count; i += 1) {
      const stream = await openEventStream(url, key, `?session=${prefix}-${i}`);
      expect(stream.status).toBe(200);
      await stream.waitFor(() => stream.comments.includes('stream open'));
      streams.push(stream);
    }
    return streams;
  }

  it('a sixth concurrent stream is 429 MCP_SESSION_LIMIT_EXCEEDED; closing one frees its slot; other operators are unaffected', async () => {
    const [operator, other] = await Promise.all([mcpOperator(app.url), mcpOperator(app.url)]);
    const streams = await openMany(app.url, operator.key, 5, 'limit');
    try {
      const sixth = await openEventStream(app.url, operator.key, '?session=limit-6');
      expect(sixth.status).toBe(429);
      expect(sixth.body).toEqual(serviceError('MCP_SESSION_LIMIT_EXCEEDED'));
      expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);

      const otherStream = await openEventStream(app.url, other.key, '?session=limit-other');
      expect(otherStream.status).toBe(200);
      otherStream.close();

      streams.shift()!.close();
      let reopened: EventStream | undefined;
      for (let attempt = 0; attempt < 50 && reopened === undefined; attempt += 1) {
        const candidate = await openEventStream(app.url, operator.key, '?session=limit-again');
        if (candidate.status === 200) reopened = candidate;
        else await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(reopened?.status).toBe(200);
      streams.push(reopened!);
    } finally {
      streams.forEach((stream) => stream.close());
    }
  });

  it('the limit holds across API instances (slots are PostgreSQL advisory locks)', async () => {
    const operator = await mcpOperator(app.url);
    const streams = [...(await openMany(app.url, operator.key, 3, 'a')), ...(await openMany(peer.url, operator.key, 2, 'b'))];
    try {
      for (const url of [app.url, peer.url]) {
        const sixth = await openEventStream(url, operator.key, '?session=c');
        expect([sixth.status, sixth.body]).toEqual([429, serviceError('MCP_SESSION_LIMIT_EXCEEDED')]);
      }
    } finally {
      streams.forEach((stream) => stream.close());
    }
  });

  it('MCP_MAX_STREAMS_PER_OPERATOR sets the limit', async () => {
    const small = await startTestApp({ MCP_MAX_STREAMS_PER_OPERATOR: '1' });
    try {
      const operator = await mcpOperator(small.url);
      const [first] = await openMany(small.url, operator.key, 1, 'one');
      const second = await openEventStream(small.url, operator.key, '?session=two');
      expect(second.status).toBe(429);
      first!.close();
    } finally {
      await small.close();
    }
  });
});
