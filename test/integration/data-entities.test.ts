import { readOutboxEvents } from '../../db/queries/outbox';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';

let app: TestApp;
let client: DataClient;
beforeAll(async () => {
  app = await startTestApp();
  client = await dataClient(app);
});
afterAll(() => app.close());

const player = (externalId: string, data: Record<string, unknown> = {}) => ({ entityType: 'player', externalId, data });

describe('POST /entities errors', () => {
  it('400 MISSING_FIELDS naming each missing field', async () => {
    const response = await client.call('/entities', { body: { entityType: 'player' } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('MISSING_FIELDS');
    expect(response.body.error.message).toBe('Missing required fields: externalId, data');
  });

  it('400 VALIDATION_FAILED for an unknown entity type or data breaking the template', async () => {
    const unknown = await client.call('/entities', { body: { entityType: 'casino', externalId: 'x', data: {} } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('VALIDATION_FAILED');
    expect(unknown.body.error.details).toEqual([{ field: 'entityType', message: 'must be one of player' }]);
    const bad = await client.call('/entities', { body: player('bad', { status: 'sleeping', date_of_birth: 'yesterday' }) });
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['data.date_of_birth', 'data.status']);
  });

  it('404 ENTITY_NOT_FOUND for reads and erasure of an unknown externalId', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await client.call('/entities/nobody', { method });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('ENTITY_NOT_FOUND');
    }
  });
});

describe('create, update, read', () => {
  it('201 created, then 200 updated merging the data; PII is ciphertext at rest and decrypted on read', async () => {
    const created = await client.call('/entities', {
      body: player('p-100', { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.test', country: 'GB' }),
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ id: expect.stringMatching(/^ent_/), externalId: 'p-100', entityType: 'player', action: 'created' });

    const updated = await client.call('/entities', { body: player('p-100', { status: 'active', phone: '+44 20 7946 0000' }) });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toEqual({ ...created.body.data, action: 'updated' });

    const row = await app.deps.db('entities').where({ operator_id: client.operator.operatorId, external_id: 'p-100' }).first();
    for (const field of ['first_name', 'last_name', 'email', 'phone']) expect(row.data[field]).toMatch(/^enc:v1:[0-9a-f]{8}:/);
    expect(JSON.stringify(row.data)).not.toMatch(/Ada|Lovelace|ada@example|7946/);
    expect(row.data.country).toBe('GB');

    const read = await client.call('/entities/p-100');
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({
      id: created.body.data.id,
      externalId: 'p-100',
      entityType: 'player',
      data: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.test', country: 'GB', status: 'active', phone: '+44 20 7946 0000' },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it('writes entity.created and entity.updated to the outbox in the same transaction, without plaintext PII', async () => {
    await client.call('/entities', { body: player('p-outbox', { first_name: 'Grace' }) });
    await client.call('/entities', { body: player('p-outbox', { country: 'US' }) });
    const events = await app.deps
      .db('outbox_events')
      .where({ operator_id: client.operator.operatorId })
      .whereRaw("payload->'entity'->>'externalId' = 'p-outbox'")
      .orderBy('seq');
    expect(events.map((event) => event.event)).toEqual(['entity.created', 'entity.updated']);
    expect(events[0].payload).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      event: 'entity.created',
      operatorId: client.operator.operatorId,
      entity: { externalId: 'p-outbox', entityType: 'player' },
    });
    expect(JSON.stringify(events)).not.toContain('Grace');
  });
});

describe('Idempotency-Key', () => {
  it('a repeat returns the original id with action duplicate and writes nothing', async () => {
    const headers = { 'Idempotency-Key': `idem-${Date.now()}` };
    const first = await client.call('/entities', { body: player('p-idem', { country: 'DE' }), headers });
    const again = await client.call('/entities', { body: player('p-idem', { country: 'DE' }), headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ ...first.body.data, action: 'duplicate' });
    const outbox = await app.deps
      .db('outbox_events')
      .where({ operator_id: client.operator.operatorId })
      .whereRaw("payload->'entity'->>'externalId' = 'p-idem'");
    expect(outbox).toHaveLength(1);
  });

  it('409 IDEMPOTENCY_KEY_REUSED for the same key with a different body', async () => {
    const headers = { 'Idempotency-Key': `reuse-${Date.now()}` };
    await client.call('/entities', { body: player('p-reuse-1'), headers });
    const response = await client.call('/entities', { body: player('p-reuse-2'), headers });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await app.deps.db('entities').where({ operator_id: client.operator.operatorId, external_id: 'p-reuse-2' }).first()).toBeUndefined();
  });

  it('20 concurrent requests with one key store exactly one event', async () => {
    await client.call('/entities', { body: player('p-race') });
    const headers = { 'Idempotency-Key': `race-${Date.now()}` };
    const body = { eventType: 'transaction', data: { type: 'deposit', amount: 2500, currency: 'EUR' } };
    const responses = await Promise.all(Array.from({ length: 20 }, () => client.call('/entities/p-race/events', { body, headers })));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 200 && r.body.data.action === 'duplicate')).toHaveLength(19);
    expect(new Set(responses.map((r) => r.body.data.id)).size).toBe(1);
    const [row] = await app.deps
      .db('entity_events')
      .where({ operator_id: client.operator.operatorId, event_type: 'transaction' })
      .whereIn('entity_id', app.deps.db('entities').select('id').where({ operator_id: client.operator.operatorId, external_id: 'p-race' }))
      .count({ count: '*' });
    expect(Number(row?.count)).toBe(1);
  });

  it('stores the written record only, and a row stored before in the HTTP shape still replays byte for byte', async () => {
    const operatorId = client.operator.operatorId;
    const stored = (key: string) => app.deps.db('idempotency_keys').where({ operator_id: operatorId, key });
    const entityKey = `old-entity-${Date.now()}`;
    const first = await client.call('/entities', { body: player('p-old-shape'), headers: { 'Idempotency-Key': entityKey } });
    expect(first.status).toBe(201);
    const { action, ...entity } = first.body.data;
    expect(action).toBe('created');
    expect((await stored(entityKey).first('response_body')).response_body).toEqual({ data: entity });
    // A repeat's keys come in jsonb's order (shorter first), as they always have.
    const repeat = JSON.stringify({ success: true, data: { id: entity.id, action: 'duplicate', entityType: 'player', externalId: 'p-old-shape' } });
    const again = () => client.call('/entities', { body: player('p-old-shape'), headers: { 'Idempotency-Key': entityKey } });
    expect(await again()).toMatchObject({ status: 200, text: repeat });
    await stored(entityKey).update({ response_status: 201, response_body: JSON.stringify({ success: true, data: first.body.data }) });
    expect(await again()).toMatchObject({ status: 200, text: repeat });

    const eventKey = `old-event-${Date.now()}`;
    const body = { eventType: 'transaction', data: { type: 'deposit', amount: 100, currency: 'EUR' } };
    const event = await client.call('/entities/p-old-shape/events', { body, headers: { 'Idempotency-Key': eventKey } });
    expect(event.status).toBe(201);
    expect(event.text).toBe(JSON.stringify({ success: true, data: { id: event.body.data.id } }));
    await stored(eventKey).update({ response_status: 201, response_body: JSON.stringify({ success: true, data: { id: event.body.data.id } }) });
    const repeated = await client.call('/entities/p-old-shape/events', { body, headers: { 'Idempotency-Key': eventKey } });
    expect(repeated.status).toBe(200);
    expect(repeated.text).toBe(JSON.stringify({ success: true, data: { id: event.body.data.id, action: 'duplicate' } }));
  });

  it('keys are scoped per operator', async () => {
    const other = await dataClient(app);
    const headers = { 'Idempotency-Key': `shared-${Date.now()}` };
    expect((await client.call('/entities', { body: player('p-scope'), headers })).status).toBe(201);
    expect((await other.call('/entities', { body: player('p-scope-other'), headers })).status).toBe(201);
  });
});

describe('erasure', () => {
  it('redacts events, removes states, keeps the entity erased, idempotently', async () => {
    await client.call('/entities', { body: player('p-erase', { first_name: 'Eve', email: 'eve@example.test' }) });
    await client.call('/entities/p-erase/events', { body: { eventType: 'transaction', data: { type: 'deposit', amount: 100, currency: 'EUR' } } });
    await client.call('/entities/p-erase/state/kyc_status', { method: 'PUT', body: { value: 'approved' } });

    const erased = await client.call('/entities/p-erase', { method: 'DELETE' });
    expect(erased.status).toBe(200);
    expect(erased.body.data).toEqual({ id: expect.stringMatching(/^ent_/), externalId: 'p-erase', deleted: true });

    const entity = await app.deps.db('entities').where({ operator_id: client.operator.operatorId, external_id: 'p-erase' }).first();
    expect(entity.data).toEqual({ _deleted: true });
    const events = await app.deps.db('entity_events').where({ operator_id: client.operator.operatorId, entity_id: entity.id });
    expect(events.map((event) => event.data)).toEqual([{ _redacted: true }]);
    expect(await app.deps.db('entity_states').where({ operator_id: client.operator.operatorId, entity_id: entity.id })).toHaveLength(0);
    const outbox = (await readOutboxEvents(app.deps.db, { operatorId: client.operator.operatorId, limit: 1000 }))
      .map((record) => record.event)
      .filter((event) => event.entity?.id === entity.id);
    expect(outbox.map((event) => event.event)).toEqual([
      'entity.created',
      'entity_event.transaction',
      'entity_state.updated.kyc_status',
      'state.updated',
      'entity.deleted',
    ]);
    for (const event of outbox.slice(0, -1)) expect(event.data).toEqual({ _redacted: true });
    expect(JSON.stringify(outbox)).not.toMatch(/enc:v1|approved/);

    expect((await client.call('/entities/p-erase')).body.data.data).toEqual({ _deleted: true });
    expect((await client.call('/entities/p-erase', { method: 'DELETE' })).body).toEqual(erased.body);
  });

  it('409 ENTITY_ERASED for later writes of any kind', async () => {
    await client.call('/entities', { body: player('p-gone') });
    await client.call('/entities/p-gone', { method: 'DELETE' });
    const writes = await Promise.all([
      client.call('/entities', { body: player('p-gone', { country: 'FR' }) }),
      client.call('/entities/p-gone/events', { body: { eventType: 'session', data: {} } }),
      client.call('/entities/p-gone/state/balance', { method: 'PUT', body: 10 }),
    ]);
    for (const response of writes) {
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('ENTITY_ERASED');
    }
  });
});
