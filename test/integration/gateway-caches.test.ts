import type { Knex } from 'knex';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createApiKey, signupOperator, type TestOperator } from '../helpers/identity';
import { startProvider, type ProviderReply, type TestProvider } from '../helpers/providerServer';
import { callGateway, connectSupplier, kycDocument } from '../helpers/suppliers';
import { eventually } from '../helpers/eventually';

/**
 * The shared worker (a process of its own) holds connections and clean breakers in memory for gateway calls
 * (activities/gateway/caches.ts). A change made by the API or straight in SQL, as another worker makes it, must
 * reach it through its notification: within moments, long before CACHE_TTL_MS (10 s) would expire the entry.
 */
let app: TestApp;
let alice: TestOperator;
let aliceKey: string;
let bobKey: string;
let reply: ProviderReply;
let provider: TestProvider;

const ok: ProviderReply = { status: 200, body: { player_ref: 'p', kyc_state: 'approved' } };
/** How long a change may take to be heard: each check is a whole gateway call, and it must stay under the 10 s TTL. */
const HEARD_MS = 7_000;

beforeAll(async () => {
  app = await startTestApp();
  const bob = await signupOperator(app.url, 'Bob Bets');
  alice = await signupOperator(app.url, 'Alice Casino');
  [aliceKey, bobKey] = await Promise.all([createApiKey(app.url, alice).then((k) => k.key), createApiKey(app.url, bob).then((k) => k.key)]);
  reply = ok;
  provider = await startProvider(() => reply);
});
afterAll(async () => {
  await app.close();
  await provider.close();
});

const connect = () => connectSupplier(app.url, aliceKey, { openapi: kycDocument(provider.url, { kind: 'none' }), credentials: {} });
const kycStatus = (connectionId: string, key = aliceKey) => callGateway(app.url, key, { connectionId, operation: 'kyc.status', params: { player_ref: 'p' } });

/** Runs `write` with the table's invalidation trigger off: no worker hears of it. */
const unnoticed = (table: string, write: (trx: Knex.Transaction) => Promise<unknown>) =>
  app.deps.db.transaction(async (trx) => {
    await trx.raw(`ALTER TABLE ${table} DISABLE TRIGGER ${table}_invalidate_cache`);
    await write(trx);
    await trx.raw(`ALTER TABLE ${table} ENABLE TRIGGER ${table}_invalidate_cache`);
  });

describe('connections held by the worker', () => {
  it("another operator's connection id is still not found while its owner's calls are answered from memory", async () => {
    const { connectionId } = await connect();
    expect((await kycStatus(connectionId)).status).toBe(200);
    const response = await kycStatus(connectionId, bobKey);
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ success: false, error: { code: 'CONNECTION_NOT_FOUND', message: `Connection ${connectionId} not found` } });
  });

  it('a call is answered from memory: a deactivation nobody hears of is not seen', async () => {
    const { connectionId } = await connect();
    expect((await kycStatus(connectionId)).status).toBe(200);
    await unnoticed('connections', (trx) => trx('connections').where({ operator_id: alice.operatorId, id: connectionId }).update({ active: false }));
    expect((await kycStatus(connectionId)).status).toBe(200);
    await app.deps.db('connections').where({ operator_id: alice.operatorId, id: connectionId }).update({ updated_at: app.deps.db.fn.now() });
    await eventually(async () => (await kycStatus(connectionId)).status === 400, HEARD_MS);
  });

  it('a connection deactivated through the API is refused once its notification arrives, and works again once reactivated', async () => {
    const { connectionId } = await connect();
    expect((await kycStatus(connectionId)).status).toBe(200);
    const patch = (active: boolean) => http(`${app.url}/connections-api/connections/${connectionId}`, { method: 'PATCH', token: aliceKey, body: { active } });
    expect((await patch(false)).status).toBe(200);
    await eventually(async () => (await kycStatus(connectionId)).status === 400, HEARD_MS);
    const refused = await kycStatus(connectionId);
    expect(refused.body).toMatchObject({ error: { code: 'CONNECTION_INACTIVE', message: `Connection ${connectionId} is not active` } });
    expect((await patch(true)).status).toBe(200);
    await eventually(async () => (await kycStatus(connectionId)).status === 200, HEARD_MS);
  });

  it("a connector deleted through the API makes its connection's calls CONNECTOR_NOT_FOUND", async () => {
    const { connectionId, connectorId } = await connect();
    expect((await kycStatus(connectionId)).status).toBe(200);
    expect((await http(`${app.url}/connections-api/connectors/${connectorId}`, { method: 'DELETE', token: aliceKey })).status).toBe(200);
    await eventually(async () => (await kycStatus(connectionId)).status === 404, HEARD_MS);
    expect((await kycStatus(connectionId)).body).toMatchObject({ error: { code: 'CONNECTOR_NOT_FOUND' } });
  });
});

describe('breakers held by the worker', () => {
  it('a circuit opened in the database, as another worker opens it, stops the calls without contacting the provider', async () => {
    const { connectionId } = await connect();
    expect((await kycStatus(connectionId)).status).toBe(200);
    await app.deps
      .db('circuit_breakers')
      .insert({ operator_id: alice.operatorId, provider: provider.url, state: 'open', consecutive_failures: 5, opened_at: app.deps.db.fn.now() })
      .onConflict(['operator_id', 'provider'])
      .merge();
    await eventually(async () => (await kycStatus(connectionId)).status === 503, HEARD_MS);
    const sent = provider.requests.length;
    const refused = await kycStatus(connectionId);
    expect(refused.body).toMatchObject({ error: { code: 'CIRCUIT_OPEN', message: `Circuit open for ${provider.url}; retry after 30 s` } });
    expect(provider.requests).toHaveLength(sent);
    await app.deps.db('circuit_breakers').where({ operator_id: alice.operatorId, provider: provider.url }).del();
    await eventually(async () => (await kycStatus(connectionId)).status === 200, HEARD_MS);
  });

  it('failures counted while the worker held the breaker closed open the circuit at the threshold (5)', async () => {
    const { connectionId } = await connect();
    expect((await kycStatus(connectionId)).status).toBe(200);
    reply = { status: 500, body: { error: 'down' } };
    try {
      const startVerification = () => callGateway(app.url, aliceKey, { connectionId, operation: 'verification.start', params: { player_ref: 'p' } });
      for (let failure = 1; failure <= 5; failure += 1) expect((await startVerification()).status).toBe(502);
      const sent = provider.requests.length;
      expect((await kycStatus(connectionId)).status).toBe(503);
      expect(provider.requests).toHaveLength(sent);
      expect(await app.deps.db('circuit_breakers').where({ operator_id: alice.operatorId, provider: provider.url }).first()).toMatchObject({ state: 'open' });
    } finally {
      reply = ok;
      await app.deps.db('circuit_breakers').where({ operator_id: alice.operatorId, provider: provider.url }).del();
    }
  });
});
