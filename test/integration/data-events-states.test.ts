import { readOutboxEvents } from '../../db/queries/outbox';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';

let app: TestApp;
let client: DataClient;
beforeAll(async () => {
  app = await startTestApp();
  client = await dataClient(app);
  await client.call('/entities', { body: { entityType: 'player', externalId: 'p-1', data: {} } });
});
afterAll(() => app.close());

const deposit = (amount: number) => ({ eventType: 'transaction', data: { type: 'deposit', amount, currency: 'EUR', status: 'completed' } });

describe('POST /entities/:externalId/events', () => {
  it('400 MISSING_FIELDS naming eventType and data', async () => {
    const response = await client.call('/entities/p-1/events', { body: {} });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'MISSING_FIELDS', message: 'Missing required fields: eventType, data' });
  });

  it.each([
    [{ eventType: 'lottery', data: {} }, ['eventType']],
    [{ eventType: 'transaction.deposit', data: { type: 'deposit', amount: 1, currency: 'EUR' } }, ['eventType']],
    [{ eventType: 'transaction', data: { type: 'deposit' } }, ['data.amount', 'data.currency']],
    [{ eventType: 'transaction', data: { type: 'gift', amount: '10', currency: 'euro' } }, ['data.amount', 'data.currency', 'data.type']],
    [{ eventType: 'game_activity', data: { game_id: 'g1' } }, ['data.bet_amount']],
  ])('400 VALIDATION_FAILED for %j', async (body, fields) => {
    const response = await client.call('/entities/p-1/events', { body });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    expect(response.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(fields);
  });

  it('404 ENTITY_NOT_FOUND for an unknown entity', async () => {
    const response = await client.call('/entities/ghost/events', { body: deposit(1) });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('ENTITY_NOT_FOUND');
  });

  it('201 with an eev_ id; the event and its outbox entry are stored', async () => {
    const response = await client.call('/entities/p-1/events', { body: deposit(5000) });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ success: true, data: { id: expect.stringMatching(/^eev_[0-9a-f]{32}$/) } });
    const row = await app.deps.db('entity_events').where({ id: response.body.data.id, operator_id: client.operator.operatorId }).first();
    expect(row).toMatchObject({ event_type: 'transaction', data: deposit(5000).data });
    const outbox = await readOutboxEvents(app.deps.db, { operatorId: client.operator.operatorId, limit: 1000 });
    const recorded = outbox.map((record) => record.event).find((event) => (event.data as { eventId?: string }).eventId === response.body.data.id);
    expect(recorded).toEqual({
      id: expect.stringMatching(/^evt_/),
      event: 'entity_event.transaction',
      operatorId: client.operator.operatorId,
      occurredAt: row.created_at.toISOString(),
      entity: { id: row.entity_id, externalId: 'p-1', entityType: 'player' },
      data: { ...deposit(5000).data, eventId: response.body.data.id },
    });
  });
});

describe('GET /entities/:externalId/events', () => {
  beforeAll(async () => {
    await client.call('/entities', { body: { entityType: 'player', externalId: 'p-list', data: {} } });
    for (let i = 1; i <= 5; i += 1) await client.call('/entities/p-list/events', { body: deposit(i) });
    await client.call('/entities/p-list/events', { body: { eventType: 'session', data: { device: 'ios' } } });
  });

  it('newest first with count, type filter, limit and offset', async () => {
    const all = await client.call('/entities/p-list/events');
    expect(all.body.count).toBe(6);
    expect(all.body.data[0]).toEqual({ id: expect.any(String), event_type: 'session', data: { device: 'ios' }, created_at: expect.any(String) });
    const page = await client.call('/entities/p-list/events?type=transaction&limit=2&offset=1');
    expect(page.body.count).toBe(5);
    expect(page.body.data.map((e: { data: { amount: number } }) => e.data.amount)).toEqual([4, 3]);
  });

  it.each(['limit=101', 'limit=0', 'offset=-1', 'limit=abc'])('400 VALIDATION_FAILED for %s', async (query) => {
    const response = await client.call(`/entities/p-list/events?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
  });
});

describe('state', () => {
  it('PUT accepts { value } or a bare value, and emits both state events', async () => {
    const wrapped = await client.call('/entities/p-1/state/risk_score', { method: 'PUT', body: { value: { score: 42, level: 'medium' } } });
    expect(wrapped.status).toBe(200);
    expect(wrapped.body.data).toEqual({ state_key: 'risk_score', value: { score: 42, level: 'medium' }, updated_at: expect.any(String) });
    const bare = await client.call('/entities/p-1/state/loyalty_tier', { method: 'PUT', body: 'gold' });
    expect(bare.body.data.value).toBe('gold');
    const events = await app.deps
      .db('outbox_events')
      .where({ operator_id: client.operator.operatorId })
      .whereIn('event', ['entity_state.updated.risk_score', 'state.updated'])
      .whereRaw("payload->'data'->>'key' = 'risk_score'");
    expect(events.map((e) => e.event).sort()).toEqual(['entity_state.updated.risk_score', 'state.updated']);
  });

  it('400 VALIDATION_FAILED for a key outside the template; MISSING_FIELDS without a body', async () => {
    const unknown = await client.call('/entities/p-1/state/favourite_colour', { method: 'PUT', body: { value: 'red' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('VALIDATION_FAILED');
    const empty = await client.call('/entities/p-1/state/balance', { method: 'PUT' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('MISSING_FIELDS');
  });

  it('GET all and one; 404 NOT_FOUND for an unset key and ENTITY_NOT_FOUND for an unknown entity', async () => {
    await client.call('/entities/p-1/state/balance', { method: 'PUT', body: { value: 1250 } });
    const all = await client.call('/entities/p-1/state');
    expect(all.body.data.map((s: { state_key: string }) => s.state_key)).toEqual(['balance', 'loyalty_tier', 'risk_score']);
    const one = await client.call('/entities/p-1/state/balance');
    expect(one.body.data).toMatchObject({ state_key: 'balance', value: 1250 });
    const unset = await client.call('/entities/p-1/state/kyc_status');
    expect(unset.status).toBe(404);
    expect(unset.body.error.code).toBe('NOT_FOUND');
    expect((await client.call('/entities/ghost/state')).body.error.code).toBe('ENTITY_NOT_FOUND');
    expect((await client.call('/entities/ghost/state/balance', { method: 'PUT', body: 1 })).status).toBe(404);
  });
});

describe('rate limits', () => {
  it('429 RATE_LIMITED with Retry-After on ingest:realtime and ingest:batch', async () => {
    const limited = await startTestApp({ RATE_LIMIT_INGEST_REALTIME: '2', RATE_LIMIT_INGEST_BATCH: '1' });
    try {
      const c = await dataClient(limited);
      const call = (path: string, body: unknown) => c.call(path, { body });
      await call('/entities', { entityType: 'player', externalId: 'r1', data: {} });
      await call('/entities/r1/events', { eventType: 'session', data: {} });
      const third = await c.call('/entities/r1/state/balance', { method: 'PUT', body: 1 });
      expect(third.status).toBe(429);
      expect(third.body.error.code).toBe('RATE_LIMITED');
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await call('/batch/states', [{ externalId: 'r1', stateKey: 'balance', value: 1 }])).status).toBe(202);
      const batch = await call('/batch/states', [{ externalId: 'r1', stateKey: 'balance', value: 2 }]);
      expect(batch.status).toBe(429);
      expect(batch.body.error.code).toBe('RATE_LIMITED');
    } finally {
      await limited.close();
    }
  });
});
