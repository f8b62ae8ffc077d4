import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { z } from 'zod';
import type { AppDeps } from '../../api/deps';
import { defineArea } from '../../api/endpoint';
import { jsonContent } from '../../api/openapi/registry';
import { contractBreach } from '../../api/responseContract';

const Thing = z.object({ data: z.object({ id: z.string(), count: z.number() }) });
const responses = { 200: jsonContent(Thing, 'A thing'), 204: { description: 'Nothing' } };

describe('contractBreach', () => {
  it('names each field a 2xx body breaks', () => {
    expect(contractBreach(responses, 200, { data: { id: 7 } }, 'application/json')).toBe(
      'data.id: Invalid input: expected string, received number; data.count: Invalid input: expected number, received undefined',
    );
  });

  it('passes a body that keeps its declaration, extra fields included', () => {
    expect(contractBreach(responses, 200, { data: { id: 'a', count: 1, more: true } }, 'application/json')).toBeNull();
  });

  it('names a 2xx status the endpoint does not declare, and leaves errors and files alone', () => {
    expect(contractBreach(responses, 201, { data: {} }, 'application/json')).toBe('201 is not a declared response');
    expect(contractBreach(responses, 404, { whatever: 1 }, 'application/json')).toBeNull();
    expect(contractBreach(responses, 200, 'a,b\n1,2', 'text/csv')).toBeNull();
    expect(contractBreach(responses, 204, undefined, '')).toBeNull();
  });
});

describe('an area with CHECK_RESPONSE_BODIES', () => {
  async function serve(check: boolean, body: unknown): Promise<{ status: number; json: unknown }> {
    const area = defineArea({ prefix: '/contract-check' });
    area.endpoint({ method: 'get', path: `/thing-${check}`, summary: 'A thing', security: 'none', responses, handle: ({ ctx }) => void (ctx.body = body) });
    const app = new Koa();
    app.use(area.router({ config: { CHECK_RESPONSE_BODIES: check }, logger: { error: () => undefined } } as unknown as AppDeps).routes());
    const server = http.createServer(app.callback()).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/contract-check/thing-${check}`);
      return { status: answer.status, json: await answer.json() };
    } finally {
      server.close();
    }
  }

  it('answers a drifted body 500 RESPONSE_CONTRACT naming the endpoint and field', async () => {
    expect(await serve(true, { data: { id: 'a' } })).toEqual({
      status: 500,
      json: {
        success: false,
        code: 'RESPONSE_CONTRACT',
        error: 'GET /contract-check/thing-true: data.count: Invalid input: expected number, received undefined',
      },
    });
  });

  it('leaves the answer alone when the check is off (production)', async () => {
    expect(await serve(false, { data: { id: 'a' } })).toEqual({ status: 200, json: { data: { id: 'a' } } });
  });
});
