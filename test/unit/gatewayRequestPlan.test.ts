import type { IndexedOperation } from '../../core/gateway/blueprint';
import { buildRequestPlan, urlOf } from '../../core/gateway/requestPlan';

const operation = (
  method: IndexedOperation['method'],
  path: string,
  parameters: IndexedOperation['parameters'] = [],
  security: IndexedOperation['security'] = null,
): IndexedOperation => ({
  method,
  path,
  operationId: null,
  summary: null,
  parameters,
  security,
});

describe('buildRequestPlan', () => {
  it('fills path parameters (encoded) and sends the other GET params in the query', () => {
    const result = buildRequestPlan(
      operation('GET', '/players/{player_ref}/kyc'),
      { player_ref: 'p 1/2', limit: 5, tags: ['a', 'b'], filter: { x: 1 }, none: null },
      'https://kyc.example/v1/',
      [],
    );
    expect(result).toEqual({
      ok: true,
      plan: {
        method: 'GET',
        pathTemplate: '/players/{player_ref}/kyc',
        baseUrl: 'https://kyc.example/v1',
        path: '/players/p%201%2F2/kyc',
        query: [
          ['limit', '5'],
          ['tags', 'a'],
          ['tags', 'b'],
          ['filter', '{"x":1}'],
        ],
        headers: {},
        security: [],
      },
    });
    if (result.ok)
      expect(urlOf(result.plan, [['key', 'k&1']]).toString()).toBe(
        'https://kyc.example/v1/players/p%201%2F2/kyc?limit=5&tags=a&tags=b&filter=%7B%22x%22%3A1%7D&key=k%261',
      );
  });

  it("puts other methods' params in the JSON body, except declared query and header parameters", () => {
    const declared = [
      { name: 'dry_run', in: 'query' as const, required: false },
      { name: 'X-Request-Source', in: 'header' as const, required: false },
    ];
    const result = buildRequestPlan(
      operation('POST', '/payments/{payment_id}/refund', declared, [{ key: [] }]),
      { payment_id: 'pay_1', amount_minor: 5, dry_run: true, 'X-Request-Source': 'gw' },
      'http://h',
      [{ other: [] }],
    );
    expect(result.ok && result.plan).toMatchObject({
      path: '/payments/pay_1/refund',
      query: [['dry_run', 'true']],
      headers: { 'X-Request-Source': 'gw' },
      body: { amount_minor: 5 },
      security: [{ key: [] }],
    });
  });

  it('sends no body when nothing is left for it, and inherits the document security', () => {
    const result = buildRequestPlan(operation('DELETE', '/verifications/{id}'), { id: 'v1' }, 'http://h', [{ doc: [] }]);
    expect(result.ok && result.plan.body).toBeUndefined();
    expect(result.ok && result.plan.security).toEqual([{ doc: [] }]);
  });

  it('reports missing path parameters instead of sending a broken path', () => {
    expect(buildRequestPlan(operation('GET', '/a/{x}/b/{y}'), { y: '' }, 'http://h', [])).toEqual({ ok: false, missing: ['x', 'y'] });
  });
});
