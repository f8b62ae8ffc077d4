import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, signupOperator, type TestOperator } from '../helpers/identity';
import { startProvider, type ProviderHandler, type ProviderReply, type TestProvider } from '../helpers/providerServer';
import { callGateway, connectSupplier, kycDocument } from '../helpers/suppliers';

/** Shared worker defaults: GATEWAY_CIRCUIT_FAILURE_THRESHOLD 5, GATEWAY_MAX_RESPONSE_BYTES 5 MiB; this app: 3 attempts, 10 s per attempt. */
const THRESHOLD = 5;

let app: TestApp;
let alice: TestOperator;
let bob: TestOperator;
let aliceKey: string;
let bobKey: string;
const providers: TestProvider[] = [];

beforeAll(async () => {
  app = await startTestApp();
  [alice, bob] = await Promise.all([signupOperator(app.url, 'Alice Casino'), signupOperator(app.url, 'Bob Bets')]);
  [aliceKey, bobKey] = await Promise.all([createApiKey(app.url, alice).then((k) => k.key), createApiKey(app.url, bob).then((k) => k.key)]);
});
afterAll(async () => {
  await app.close();
  await Promise.all(providers.map((provider) => provider.close()));
});

const ok: ProviderReply = { status: 200, body: { player_ref: 'p', kyc_state: 'approved' } };

/** A supplier whose answers follow `script` (one entry per request, the last one repeating), connected for `key`. */
async function scriptedSupplier(script: ProviderReply[] | ProviderHandler, key = aliceKey, appUrl = app.url) {
  let served = 0;
  const handler: ProviderHandler = Array.isArray(script) ? () => script[Math.min(served++, script.length - 1)]! : script;
  const provider = await startProvider(handler);
  providers.push(provider);
  const auth = { kind: 'none' as const };
  const { connectionId } = await connectSupplier(appUrl, key, { openapi: kycDocument(provider.url, auth), credentials: {} });
  return { provider, connectionId };
}

const kycStatus = (connectionId: string, key = aliceKey, appUrl = app.url) =>
  callGateway(appUrl, key, { connectionId, operation: 'kyc.status', params: { player_ref: 'p' } });
const startVerification = (connectionId: string, key = aliceKey) =>
  callGateway(app.url, key, { connectionId, operation: 'verification.start', params: { player_ref: 'p' } });
const breaker = async (operatorId: string, provider: TestProvider) =>
  app.deps.db('circuit_breakers').where({ operator_id: operatorId, provider: provider.url }).first();

describe('retries only where safe', () => {
  it('a flaky GET is retried after 5xx and succeeds; the breaker count resets', async () => {
    const { provider, connectionId } = await scriptedSupplier([{ status: 503, body: { error: 'busy' } }, { status: 502 }, ok]);
    const response = await kycStatus(connectionId);
    expect(response.status).toBe(200);
    expect(provider.requests).toHaveLength(3);
    expect(await breaker(alice.operatorId, provider)).toMatchObject({ state: 'closed', consecutive_failures: 0 });
  });

  it('a GET whose connection drops is retried', async () => {
    const { provider, connectionId } = await scriptedSupplier([{ status: 200, destroy: true }, ok]);
    expect((await kycStatus(connectionId)).status).toBe(200);
    expect(provider.requests).toHaveLength(2);
  });

  it('a GET that keeps failing gives up after GATEWAY_MAX_ATTEMPTS with the last provider answer', async () => {
    const { provider, connectionId } = await scriptedSupplier([{ status: 500, body: { error: 'down' } }]);
    const response = await kycStatus(connectionId);
    expect(response.status).toBe(502);
    expect(response.body).toMatchObject({ error: { code: 'PROVIDER_ERROR', message: 'Provider returned HTTP 500' }, data: { error: 'down' } });
    expect(provider.requests).toHaveLength(3);
  });

  it('a POST is never sent twice: not after a 5xx, not after a dropped connection (its outcome is unknown)', async () => {
    const failing = await scriptedSupplier([{ status: 503, body: { error: 'busy' } }, ok]);
    const response = await startVerification(failing.connectionId);
    expect(response.status).toBe(502);
    expect(response.body).toMatchObject({ error: { code: 'PROVIDER_ERROR', message: 'Provider returned HTTP 503' }, data: { error: 'busy' } });
    expect(failing.provider.requests).toHaveLength(1);

    const dropping = await scriptedSupplier([{ status: 200, destroy: true }, ok]);
    const dropped = await startVerification(dropping.connectionId);
    expect(dropped.status).toBe(504);
    expect(dropped.body.error).toMatchObject({ code: 'GATEWAY_OUTCOME_UNKNOWN', details: { callId: dropped.headers.get('gateway-call-id') } });
    expect(dropping.provider.requests).toHaveLength(1);
  });
});

describe('per-attempt timeout and response limit', () => {
  it('an attempt that exceeds GATEWAY_TIMEOUT_MS is abandoned; GET retries, POST does not (its outcome is unknown)', async () => {
    const quick = await startTestApp({ GATEWAY_TIMEOUT_MS: '300', GATEWAY_MAX_ATTEMPTS: '2' });
    try {
      // Waiting out the first attempt would take 5 s; a loaded machine's round trips fit well within the bound.
      const { provider, connectionId } = await scriptedSupplier([{ ...ok, delayMs: 5000 }, ok], aliceKey, quick.url);
      const started = Date.now();
      expect((await kycStatus(connectionId, aliceKey, quick.url)).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(provider.requests).toHaveLength(2);

      const slow = await scriptedSupplier([{ ...ok, delayMs: 1500 }], aliceKey, quick.url);
      const response = await callGateway(quick.url, aliceKey, { connectionId: slow.connectionId, operation: 'verification.start', params: {} });
      expect(response.status).toBe(504);
      expect(response.body.error.code).toBe('GATEWAY_OUTCOME_UNKNOWN');
      expect(slow.provider.requests).toHaveLength(1);
    } finally {
      await quick.close();
    }
  });

  it('a body over GATEWAY_MAX_RESPONSE_BYTES is refused', async () => {
    const { connectionId } = await scriptedSupplier([{ status: 200, raw: 'x'.repeat(5 * 1024 * 1024 + 1), headers: { 'content-type': 'text/plain' } }]);
    const response = await kycStatus(connectionId);
    expect(response.status).toBe(502);
    expect(response.body).toMatchObject({
      error: { code: 'PROVIDER_ERROR', message: 'Provider response refused: provider response exceeds 5242880 bytes' },
      data: null,
    });
  });
});

describe('circuit breaker (spec 3.6), state in PostgreSQL', () => {
  let health: ProviderReply = { status: 500, body: { error: 'down' } };
  /** When set, the next request is held at the supplier: `reached` tells it arrived, the answer waits for `until`. */
  let hold: { reached: () => void; until: Promise<void> } | undefined;
  let supplier: Awaited<ReturnType<typeof scriptedSupplier>>;
  /** Sets the circuit as opened `seconds` ago by the database's clock: however long the tests before took, the period left is exact. */
  const openedAgo = (seconds: number) =>
    app.deps
      .db('circuit_breakers')
      .where({ operator_id: alice.operatorId, provider: supplier.provider.url })
      .update({ opened_at: app.deps.db.raw(`now() - make_interval(secs => ?)`, [seconds]) });

  beforeAll(async () => {
    supplier = await scriptedSupplier(async () => {
      const held = hold;
      hold = undefined;
      if (held) {
        held.reached();
        await held.until;
      }
      return health;
    });
  });

  it(`opens after ${THRESHOLD} consecutive 5xx: 503 CIRCUIT_OPEN with Retry-After: 30, provider not contacted`, async () => {
    for (let i = 1; i <= THRESHOLD; i += 1) {
      expect((await startVerification(supplier.connectionId)).status).toBe(502);
      expect(await breaker(alice.operatorId, supplier.provider)).toMatchObject({ consecutive_failures: i, state: i < THRESHOLD ? 'closed' : 'open' });
    }
    const refused = await kycStatus(supplier.connectionId);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(refused.body).toEqual({
      success: false,
      error: { code: 'CIRCUIT_OPEN', message: `Circuit open for ${supplier.provider.url}; retry after 30 s` },
      latencyMs: expect.any(Number),
    });
    expect(supplier.provider.requests).toHaveLength(THRESHOLD);
    const events = await app.deps.db('outbox_events').where({ operator_id: alice.operatorId, event: 'gateway.request.failed' }).orderBy('seq', 'desc').first();
    expect(events.payload.data).toMatchObject({ connectionId: supplier.connectionId, code: 'CIRCUIT_OPEN', status: null });
  });

  it("is per operator: another operator's calls to the same provider still go through", async () => {
    const { connectionId } = await connectSupplier(app.url, bobKey, { openapi: kycDocument(supplier.provider.url, { kind: 'none' }), credentials: {} });
    health = ok;
    expect((await kycStatus(connectionId, bobKey)).status).toBe(200);
    health = { status: 500, body: { error: 'down' } };
  });

  it('after 30 s one trial goes through; its failure reopens the circuit for another 30 s', async () => {
    await openedAgo(28);
    expect((await kycStatus(supplier.connectionId)).status).toBe(503);
    await openedAgo(31);
    const before = supplier.provider.requests.length;
    const trial = await startVerification(supplier.connectionId);
    expect(trial.status).toBe(502);
    expect(supplier.provider.requests.length).toBe(before + 1);
    const reopened = await breaker(alice.operatorId, supplier.provider);
    expect(reopened.state).toBe('open');
    expect(Date.now() - new Date(reopened.opened_at).getTime()).toBeLessThan(5000);
    expect((await kycStatus(supplier.connectionId)).status).toBe(503);
  });

  it('half-open admits a single trial; its success closes the circuit and resets the count', async () => {
    health = ok;
    let release!: () => void;
    const reached = new Promise<void>((resolve) => {
      hold = { reached: resolve, until: new Promise<void>((done) => (release = done)) };
    });
    await openedAgo(31);
    const trial = kycStatus(supplier.connectionId);
    await reached;
    expect(await breaker(alice.operatorId, supplier.provider)).toMatchObject({ state: 'half_open' });
    const concurrent = await kycStatus(supplier.connectionId);
    expect(concurrent.status).toBe(503);
    release();
    expect((await trial).status).toBe(200);
    expect(await breaker(alice.operatorId, supplier.provider)).toMatchObject({ state: 'closed', consecutive_failures: 0, opened_at: null });
    health = ok;
    expect((await kycStatus(supplier.connectionId)).status).toBe(200);
  });
});
