import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { routeBySegment } from '../../api/routeBySegment';

/** Answered rather than thrown, so the 405 keeps its `Allow` header for the test to read. */
const options = { throw: false };

/** Two areas under one segment, each with a method of `/gateway/calls/:callId`; one under another segment; a bare route. */
function areas(): Router[] {
  const gateway = new Router({ prefix: '/gateway' });
  gateway.post('/', (ctx) => void (ctx.body = 'call'));
  const calls = new Router({ prefix: '/gateway/calls' });
  calls.get('/:callId', (ctx) => void (ctx.body = `read ${ctx.params.callId}`));
  gateway.delete('/calls/:callId', (ctx) => void (ctx.body = `forget ${ctx.params.callId}`));
  const data = new Router({ prefix: '/operator-data-api' });
  data.use(async (ctx, next) => {
    ctx.set('X-Area', 'data');
    await next();
  });
  data.get('/entities/:externalId', (ctx) => void (ctx.body = `entity ${ctx.params.externalId}`));
  const health = new Router();
  health.get('/healthz', (ctx) => void (ctx.body = 'ok'));
  return [gateway, calls, data, health];
}

let server: http.Server;
let url: string;
beforeAll(async () => {
  const app = new Koa();
  app.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      ctx.body = 'no route';
      ctx.status = 404;
    }
  });
  app.use(routeBySegment(areas(), options));
  server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const call = async (method: string, path: string) => {
  const response = await fetch(`${url}${path}`, { method });
  return { status: response.status, text: await response.text(), allow: response.headers.get('allow'), area: response.headers.get('x-area') };
};

describe('routeBySegment', () => {
  it("serves each route, with its params and its area's middleware", async () => {
    expect(await call('POST', '/gateway')).toMatchObject({ status: 200, text: 'call' });
    expect(await call('GET', '/gateway/calls/gwc_1')).toMatchObject({ status: 200, text: 'read gwc_1' });
    expect(await call('GET', '/operator-data-api/entities/p%201')).toMatchObject({ status: 200, text: 'entity p 1', area: 'data' });
    expect(await call('GET', '/healthz')).toMatchObject({ status: 200, text: 'ok' });
  });

  it("sends a first segment in another case to the 404: @koa/router would match the route but skip the area's middleware", async () => {
    expect(await call('GET', '/OPERATOR-DATA-API/entities/p1')).toMatchObject({ status: 404, text: 'no route', area: null });
    expect(await call('GET', '/operator-data-api/ENTITIES/p1')).toMatchObject({ status: 200, text: 'entity p1', area: 'data' });
  });

  it("answers 405 with every method of the path's segment, across the areas that share it", async () => {
    expect(await call('DELETE', '/gateway')).toMatchObject({ status: 405, allow: 'POST' });
    expect(await call('DELETE', '/gateway/calls/gwc_1')).toMatchObject({ status: 200, text: 'forget gwc_1' });
    const refused = await call('PATCH', '/gateway/calls/gwc_1');
    expect(refused.status).toBe(405);
    expect(refused.allow?.split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD']);
  });

  it('leaves a path no route starts with to the 404 around it', async () => {
    expect(await call('GET', '/nowhere/at/all')).toMatchObject({ status: 404, text: 'no route' });
    expect(await call('GET', '/gateway/elsewhere')).toMatchObject({ status: 404, text: 'no route' });
    expect(await call('GET', '/')).toMatchObject({ status: 404, text: 'no route' });
  });

  it('refuses a route that starts with a parameter, which no segment could name', () => {
    const loose = new Router();
    loose.get('/:anything', () => undefined);
    expect(() => routeBySegment([loose], options)).toThrow('the route /:anything starts with no literal segment to be routed by');
  });
});
