import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { z } from 'zod';
import type { AppDeps } from '../../api/deps';
import { defineArea } from '../../api/endpoint';
import type { ApiKeyPrincipal } from '../../api/middleware/authenticate';
import { jsonBody } from '../../api/middleware/jsonBody';
import { jsonContent } from '../../api/openapi/registry';

const deps = { config: { CHECK_RESPONSE_BODIES: false }, logger: { error: () => undefined } } as unknown as AppDeps;
const responses = { 200: jsonContent(z.record(z.string(), z.unknown()), 'Anything') };
const caller: ApiKeyPrincipal = { kind: 'apiKey', operatorId: 'op_a', keyId: 'key_1', mcpEnabled: false, mcpAutomationAllowlist: null };

/** One area with a principal reader (what its authentication would put on the request) and one without. */
const withCaller = defineArea({ prefix: '/handler-args', principal: (ctx) => ctx.state.caller as ApiKeyPrincipal });
const declared = withCaller.handler(
  { input: { params: z.object({ id: z.string().max(5) }), query: z.object({ n: z.coerce.number() }) }, raw: ['body', 'bytes'] },
  ({ ctx, input, principal, raw }) => {
    ctx.body = { id: input.params.id, n: input.query.n, operatorId: principal.operatorId, body: raw.body, bytes: raw.bytes?.length ?? null };
  },
);
withCaller.endpoint({
  method: 'post',
  path: '/things/:id',
  summary: 'Declared',
  security: 'none',
  request: { body: { schema: z.unknown(), description: 'Any' } },
  responses,
  ...declared,
});
withCaller.endpoint({ method: 'get', path: '/public', summary: 'Public', security: 'none', responses, handle: ({ ctx, raw }) => void (ctx.body = { raw }) });

const noCaller = defineArea({ prefix: '/handler-args-anonymous' });
noCaller.endpoint({
  method: 'get',
  path: '/reads-caller',
  summary: 'Reads a caller it has none of',
  security: 'none',
  responses,
  handle: ({ ctx, principal }) => void (ctx.body = { principal }),
});

async function call(path: string, init?: RequestInit): Promise<{ status: number; json: unknown }> {
  const app = new Koa();
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      ctx.status = (error as { status?: number }).status ?? 500;
      ctx.body = { error: (error as Error).message };
    }
  });
  app.use(jsonBody(1024));
  app.use(async (ctx, next) => {
    ctx.state.caller = caller;
    await next();
  });
  app.use(withCaller.router(deps).routes());
  app.use(noCaller.router(deps).routes());
  const server = http.createServer(app.callback()).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, init);
    return { status: answer.status, json: await answer.json() };
  } finally {
    server.close();
  }
}

describe('a handler declared with area.handler', () => {
  it('gets its input parsed, the area principal and only the raw parts it declared', async () => {
    const body = JSON.stringify({ anything: [1, 2] });
    const answer = await call('/handler-args/things/ab?n=42', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(answer).toEqual({ status: 200, json: { id: 'ab', n: 42, operatorId: 'op_a', body: { anything: [1, 2] }, bytes: Buffer.byteLength(body) } });
  });

  it('is not reached when its declared input fails validation', async () => {
    const answer = await call('/handler-args/things/toolong?n=1', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: expect.stringContaining('id') });
  });

  it('hands an endpoint that declares no raw part an empty raw', async () => {
    expect(await call('/handler-args/public')).toEqual({ status: 200, json: { raw: {} } });
  });

  it('fails loudly (500) when a handler reads a principal its area does not declare', async () => {
    const answer = await call('/handler-args-anonymous/reads-caller');
    expect(answer.status).toBe(500);
    expect(answer.json).toEqual({ error: 'GET /handler-args-anonymous/reads-caller: the handler read a principal its area does not declare' });
  });
});
