import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, signupOperator, type TestOperator } from '../helpers/identity';
import { authorised, type ProviderAuth, type TestProvider } from '../helpers/providerServer';
import {
  callGateway,
  connectSupplier,
  credentialsFor,
  KYC_SCHEMA_MAP,
  kycDocument,
  PAYMENTS_SCHEMA_MAP,
  paymentsSwaggerYaml,
  startKycSupplier,
  startPaymentsSupplier,
} from '../helpers/suppliers';

let app: TestApp;
let operator: TestOperator;
let key: string;
const suppliers: TestProvider[] = [];

beforeAll(async () => {
  app = await startTestApp();
  operator = await signupOperator(app.url, 'Supplier Casino');
  key = (await createApiKey(app.url, operator)).key;
});
afterAll(async () => {
  await app.close();
  await Promise.all(suppliers.map((supplier) => supplier.close()));
});

async function kycSupplier(auth: ProviderAuth) {
  const supplier = await startKycSupplier(auth);
  suppliers.push(supplier);
  const { connectionId } = await connectSupplier(app.url, key, {
    openapi: kycDocument(supplier.url, auth),
    schemaMap: KYC_SCHEMA_MAP,
    credentials: credentialsFor(auth),
    provider: 'verikyc',
  });
  return { supplier, connectionId };
}

async function paymentsSupplier(auth: ProviderAuth) {
  const supplier = await startPaymentsSupplier(auth);
  suppliers.push(supplier);
  const { connectionId } = await connectSupplier(app.url, key, {
    openapi: paymentsSwaggerYaml(supplier.url, auth),
    schemaMap: PAYMENTS_SCHEMA_MAP,
    credentials: credentialsFor(auth),
    provider: 'payflow',
  });
  return { supplier, connectionId };
}

const gateway = (connectionId: string, operation: string, params?: Record<string, unknown>) => callGateway(app.url, key, { connectionId, operation, params });

describe('KYC supplier (OpenAPI 3, apiKey header)', () => {
  const auth: ProviderAuth = { kind: 'apiKeyHeader', name: 'X-Api-Key', value: 'kyc-live-4f2a' };
  let kyc: Awaited<ReturnType<typeof kycSupplier>>;
  beforeAll(async () => {
    kyc = await kycSupplier(auth);
  });

  it('GET with path parameters from translated params; the response comes back in canonical names', async () => {
    const response = await gateway(kyc.connectionId, 'kyc.status', { playerId: 'player 7' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: { playerId: 'player 7', status: 'approved', completedAt: '2026-01-02T03:04:05Z', documents: [{ documentType: 'passport', status: 'approved' }] },
      latencyMs: expect.any(Number),
    });
    const received = kyc.supplier.requests.at(-1)!;
    expect(received.method).toBe('GET');
    expect(received.path).toBe('/v1/players/player%207/kyc');
    expect(received.headers['x-api-key']).toBe(auth.kind === 'apiKeyHeader' ? auth.value : '');
    expect(received.body).toBe('');
  });

  it('POST sends translated params as the JSON body (provider 201 → 200)', async () => {
    const response = await gateway(kyc.connectionId, 'verification.start', {
      playerId: 'p-1',
      documentType: 'passport',
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ verificationId: 'ver_1', playerId: 'p-1', documentType: 'passport', status: 'pending' });
    const received = kyc.supplier.requests.at(-1)!;
    expect([received.method, received.path, received.headers['content-type']]).toEqual(['POST', '/v1/verifications', 'application/json']);
    expect(received.json).toEqual({ player_ref: 'p-1', doc_type: 'passport', given_name: 'Ada', family_name: 'Lovelace' });
  });

  it('DELETE by keyword (cancel)', async () => {
    const response = await gateway(kyc.connectionId, 'verification.cancel', { verificationId: 'ver_9' });
    expect(response.body.data).toEqual({ verificationId: 'ver_9', status: 'cancelled' });
    expect(kyc.supplier.requests.at(-1)!.method).toBe('DELETE');
    expect(kyc.supplier.requests.at(-1)!.path).toBe('/v1/verifications/ver_9');
  });

  it('emits gateway.request.completed (path template, no values) and gateway.request.failed for a provider 4xx', async () => {
    await gateway(kyc.connectionId, 'kyc.status', { playerId: 'unknown' });
    const rows = await app.deps
      .db('outbox_events')
      .where({ operator_id: operator.operatorId })
      .whereIn('event', ['gateway.request.completed', 'gateway.request.failed'])
      .orderBy('seq');
    const completed = rows.find((row) => row.event === 'gateway.request.completed' && row.payload.data.operation === 'kyc.status')!;
    expect(completed.payload).toEqual({
      id: expect.stringMatching(/^evt_/),
      event: 'gateway.request.completed',
      operatorId: operator.operatorId,
      occurredAt: expect.any(String),
      entity: null,
      data: {
        connectionId: kyc.connectionId,
        operation: 'kyc.status',
        method: 'GET',
        path: '/players/{player_ref}/kyc',
        status: 200,
        latencyMs: expect.any(Number),
      },
    });
    expect(rows.at(-1)!.payload).toMatchObject({ event: 'gateway.request.failed', data: { operation: 'kyc.status', status: 404, method: 'GET' } });
    expect(JSON.stringify(rows.map((row) => row.payload))).not.toMatch(/player 7|Lovelace|kyc-live/);
  });
});

describe('payments supplier (Swagger 2.0 YAML, basic auth)', () => {
  const auth: ProviderAuth = { kind: 'basic', username: 'casino', password: 'pa:ss' };
  let payments: Awaited<ReturnType<typeof paymentsSupplier>>;
  beforeAll(async () => {
    payments = await paymentsSupplier(auth);
  });

  it('deposit → POST /payments with translated body; canonical response', async () => {
    const response = await gateway(payments.connectionId, 'payment.deposit', { playerId: 'p-1', amount: 5000, currency: 'EUR', type: 'deposit' });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ reference: 'pay_123', playerId: 'p-1', amount: 5000, currency: 'EUR', status: 'completed' });
    expect(payments.supplier.requests.at(-1)!.json).toEqual({ customer_id: 'p-1', amount_minor: 5000, ccy: 'EUR', type: 'deposit' });
  });

  it('list → GET with params in the query, nested results translated', async () => {
    const response = await gateway(payments.connectionId, 'payment.list', { status: 'pending', limit: 5 });
    expect(response.body.data).toEqual({ items: [{ reference: 'pay_123', status: 'pending', amount: 5000 }], count: 1 });
    const received = payments.supplier.requests.at(-1)!;
    expect([received.method, received.path, received.query.toString()]).toEqual(['GET', '/api/payments', 'state=pending&limit=5']);
  });

  it('get, refund (no keyword → POST, matched by path) and wallet balance', async () => {
    expect((await gateway(payments.connectionId, 'payment.get', { reference: 'pay_7' })).body.data).toEqual({
      reference: 'pay_7',
      status: 'completed',
      amount: 5000,
      currency: 'EUR',
    });
    expect((await gateway(payments.connectionId, 'payment.refund', { reference: 'pay_7' })).body.data).toEqual({ reference: 'pay_7', status: 'reversed' });
    expect(payments.supplier.requests.at(-1)!.path).toBe('/api/payments/pay_7/refund');
    expect((await gateway(payments.connectionId, 'wallet.balance', { accountId: 'acc 1' })).body.data).toEqual({
      accountId: 'acc 1',
      balance_minor: 12345,
      currency: 'EUR',
    });
  });

  it('502 PROVIDER_ERROR carries the untranslated provider body', async () => {
    const response = await gateway(payments.connectionId, 'payment.deposit', { playerId: 'p-1', amount: 0, currency: 'EUR' });
    expect(response.status).toBe(502);
    expect(response.body).toEqual({
      success: false,
      error: { code: 'PROVIDER_ERROR', message: 'Provider returned HTTP 422' },
      data: { error: 'amount_minor must be positive', field: 'amount_minor' },
      latencyMs: expect.any(Number),
    });
  });
});

describe('outbound authentication, checked by the supplier', () => {
  const schemes: Array<[string, ProviderAuth, 'kyc' | 'payments']> = [
    ['apiKey in a header', { kind: 'apiKeyHeader', name: 'X-Partner-Key', value: 'hdr-key-1' }, 'kyc'],
    ['apiKey in the query', { kind: 'apiKeyQuery', name: 'api_key', value: 'query-key-1' }, 'kyc'],
    ['HTTP bearer', { kind: 'bearer', token: 'bearer-token-1' }, 'kyc'],
    ['HTTP basic', { kind: 'basic', username: 'user-1', password: 'secret:1' }, 'kyc'],
    ['HMAC (http hmac scheme)', { kind: 'hmac', secret: 'hmac-secret-1' }, 'kyc'],
    ['HMAC (Swagger X-Signature apiKey)', { kind: 'hmac', secret: 'hmac-secret-2' }, 'payments'],
    ['no scheme defined: bearer from the first credential', { kind: 'none', expectedBearer: 'fallback-token-1' }, 'kyc'],
  ];

  it.each(schemes)('%s', async (_name, auth, kind) => {
    const { supplier, connectionId } = kind === 'kyc' ? await kycSupplier(auth) : await paymentsSupplier(auth);
    const [operation, params] =
      kind === 'kyc'
        ? ['verification.start', { playerId: 'p-2', documentType: 'passport' }]
        : ['payment.deposit', { playerId: 'p-2', amount: 100, currency: 'EUR' }];
    const response = await gateway(connectionId, operation, params);
    expect(response.status).toBe(200);
    const received = supplier.requests.at(-1)!;
    expect(authorised(received, auth)).toBe(true);
    if (auth.kind === 'hmac') expect(received.body.length).toBeGreaterThan(2);
    if (auth.kind === 'apiKeyQuery') expect(received.query.get('api_key')).toBe('query-key-1');
  });

  it('wrong credentials are refused by the supplier: 502 PROVIDER_ERROR with its 401 body', async () => {
    const auth: ProviderAuth = { kind: 'hmac', secret: 'right-secret' };
    const supplier = await startKycSupplier(auth);
    suppliers.push(supplier);
    const { connectionId } = await connectSupplier(app.url, key, { openapi: kycDocument(supplier.url, auth), credentials: { secret: 'wrong-secret' } });
    const response = await gateway(connectionId, 'verification.start', { player_ref: 'p' });
    expect(response.status).toBe(502);
    expect(response.body.data).toEqual({ error: 'invalid credentials' });
    expect(response.body.error.message).toBe('Provider returned HTTP 401');
  });

  it("the connection's baseUrl replaces the document's server", async () => {
    const auth: ProviderAuth = { kind: 'bearer', token: 'moved-token' };
    const supplier = await startKycSupplier(auth);
    suppliers.push(supplier);
    const { connectionId } = await connectSupplier(app.url, key, {
      openapi: kycDocument('http://127.0.0.1:9', auth),
      credentials: credentialsFor(auth),
      baseUrl: `${supplier.url}/v1`,
      schemaMap: KYC_SCHEMA_MAP,
    });
    const response = await gateway(connectionId, 'kyc.status', { playerId: 'p-3' });
    expect(response.status).toBe(200);
    expect(supplier.requests).toHaveLength(1);
  });
});
