import { jsonReadPool } from '../../core/jsonReadPool';
import { stableStringify } from '../../core/stableJson';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, waitForJob, type DataClient } from '../helpers/data';
import { http } from '../helpers/http';

/**
 * A `__proto__` key is data like any other (docs/security.md "`__proto__` keys"): stored exactly, read back exactly,
 * and never a prototype. Each write is sent small (parsed on the API's thread) and ≥ 64 KiB (on a body worker).
 */
const DATA = '{"__proto__":{"polluted":1},"b":2,"n":{"__proto__":{"deep":1},"list":[{"__proto__":null}]}}';
const PAD = 'p'.repeat(70 * 1024);
const SIZES = [
  ['small', ''],
  ['large', PAD],
] as const;

/** The data text with a `pad` field when large: the bodies built from it are then over 64 KiB. */
const dataText = (pad: string) => (pad ? `${DATA.slice(0, -1)},"pad":"${pad}"}` : DATA);
/** Expected values come from JSON.parse: an object literal's `__proto__` would set its prototype instead. */
const dataOf = (pad: string) => JSON.parse(dataText(pad)) as Record<string, unknown>;

let app: TestApp;
let alice: DataClient;
let bob: DataClient;
const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();

const send = (client: DataClient, path: string, text: string, options: { method?: string; key?: string } = {}) =>
  client.call(path, {
    method: options.method ?? 'POST',
    rawBody: text,
    headers: { 'content-type': 'application/json', ...(options.key ? { 'idempotency-key': options.key } : {}) },
  });

/** The stored JSONB holds the key, asked of PostgreSQL itself; its JS reading equals what was sent. */
async function expectStored(table: string, column: string, where: Record<string, string>, pad: string): Promise<void> {
  const row = await app.deps
    .db(table)
    .where(where)
    .first(app.deps.db.raw(`jsonb_exists(${column}, '__proto__') AS has_key`), app.deps.db.raw(`${column} #>> '{__proto__,polluted}' AS polluted`), column);
  expect(row).toMatchObject({ has_key: true, polluted: '1' });
  expect(Object.hasOwn(row[column], '__proto__')).toBe(true);
  expect(stableStringify(row[column])).toBe(stableStringify(dataOf(pad)));
}

beforeAll(async () => {
  app = await startTestApp();
  [alice, bob] = await Promise.all([dataClient(app), dataClient(app)]);
  expect((await alice.call('/entities', { body: { entityType: 'player', externalId: 'p-1', data: {} } })).status).toBe(201);
});
afterEach(() => {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).deep).toBeUndefined();
});
let closed = false;
afterAll(async () => {
  if (!closed) await app.close();
});

describe.each(SIZES)('a __proto__ key is stored exactly (%s body)', (size, pad) => {
  const operator = () => ({ operator_id: alice.operator.operatorId });

  it('in an event, with and without an Idempotency-Key; the repeat is the duplicate; read back as sent', async () => {
    const text = `{"eventType":"session","data":${dataText(pad)}}`;
    expect(Buffer.byteLength(text) >= 64 * 1024).toBe(size === 'large');
    const plain = await send(alice, '/entities/p-1/events', text);
    expect(plain.status).toBe(201);
    await expectStored('entity_events', 'data', { ...operator(), id: plain.body.data.id }, pad);

    const key = `proto-${size}`;
    const keyed = await send(alice, '/entities/p-1/events', text, { key });
    expect(keyed.status).toBe(201);
    await expectStored('entity_events', 'data', { ...operator(), id: keyed.body.data.id }, pad);
    expect((await send(alice, '/entities/p-1/events', text, { key })).body).toEqual({ success: true, data: { id: keyed.body.data.id, action: 'duplicate' } });
    // Without the key the body differs: the key's request hash holds it.
    const other = await send(alice, '/entities/p-1/events', `{"eventType":"session","data":{"b":2${pad ? `,"pad":"${pad}"` : ''}}}`, { key });
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');

    const listed = await alice.call('/entities/p-1/events?limit=1');
    expect(stableStringify(listed.body.data[0].data)).toBe(stableStringify(dataOf(pad)));
    // Another operator neither sees nor reaches it.
    expect((await send(bob, '/entities/p-1/events', text)).status).toBe(404);
  });

  it('in an entity, beside a sealed PII field, on create and on update; read back opened as sent', async () => {
    const externalId = `e-${size}`;
    const text = (id: string) => `{"entityType":"player","externalId":"${id}","data":${dataText(pad)}}`;
    expect((await send(alice, '/entities', text(externalId))).status).toBe(201);
    await expectStored('entities', 'data', { ...operator(), external_id: externalId }, pad);
    expect((await send(alice, '/entities', text(externalId))).body.data.action).toBe('updated');
    await expectStored('entities', 'data', { ...operator(), external_id: externalId }, pad);

    const sealed = `{"entityType":"player","externalId":"${externalId}-pii","data":${dataText(pad).slice(0, -1)},"first_name":"Ada"}}`;
    expect((await send(alice, '/entities', sealed)).status).toBe(201);
    const read = await alice.call(`/entities/${externalId}-pii`);
    expect(read.status).toBe(200);
    expect(stableStringify(read.body.data.data)).toBe(stableStringify({ ...dataOf(pad), first_name: 'Ada' }));
  });

  it("in an expression preview's sample: the expression sees the key", async () => {
    // At the sample's top level: a nested one is handed on inside its parent's value whatever the schema does.
    const sample = `{"__proto__":{"polluted":1},"event":"entity_event.transaction","data":${dataText(pad)}}`;
    const response = await http(`${app.url}/workflows-api/expressions/preview`, {
      method: 'POST',
      token: alice.key,
      headers: { 'content-type': 'application/json' },
      rawBody: `{"expression":"\\"__proto__\\" in $keys(trigger) and $lookup(trigger, \\"__proto__\\").polluted = 1","kind":"condition","sample":${sample}}`,
    });
    expect(response).toMatchObject({ status: 200, body: { success: true, data: { ok: true, value: true } } });
  });

  it('in a state value; read back as sent', async () => {
    const response = await send(alice, '/entities/p-1/state/loyalty_tier', `{"value":${dataText(pad)}}`, { method: 'PUT' });
    expect(response.status).toBe(200);
    expect(stableStringify(response.body.data.value)).toBe(stableStringify(dataOf(pad)));
    const entity = await app.deps
      .db('entities')
      .where({ ...operator(), external_id: 'p-1' })
      .first();
    await expectStored('entity_states', 'value', { ...operator(), entity_id: entity.id, state_key: 'loyalty_tier' }, pad);
  });

  it('in batches of entities (two items of one entity merged), events and states', async () => {
    const externalId = `batch-${size}`;
    const entities = `[{"entityType":"player","externalId":"${externalId}","data":{"x":1}},{"entityType":"player","externalId":"${externalId}","data":${dataText(pad)}}]`;
    const submitted = await send(alice, '/batch/entities', entities);
    expect(submitted.status).toBe(202);
    expect((await waitForJob(alice, submitted.body.data.jobId)).output).toMatchObject({ succeeded: 2, failed: 0 });
    const merged = await app.deps
      .db('entities')
      .where({ ...operator(), external_id: externalId })
      .first();
    expect(merged.data.x).toBe(1);
    delete merged.data.x;
    expect(stableStringify(merged.data)).toBe(stableStringify(dataOf(pad)));

    const events = await send(alice, '/batch/events', `[{"externalId":"${externalId}","eventType":"session","data":${dataText(pad)}}]`);
    expect((await waitForJob(alice, events.body.data.jobId)).output).toMatchObject({ succeeded: 1, failed: 0 });
    const event = await app.deps
      .db('entity_events')
      .where({ ...operator(), entity_id: merged.id })
      .first('id');
    await expectStored('entity_events', 'data', { ...operator(), id: event.id }, pad);

    const states = await send(alice, '/batch/states', `[{"externalId":"${externalId}","stateKey":"risk_score","value":${dataText(pad)}}]`);
    expect((await waitForJob(alice, states.body.data.jobId)).output).toMatchObject({ succeeded: 1, failed: 0 });
    await expectStored('entity_states', 'value', { ...operator(), entity_id: merged.id, state_key: 'risk_score' }, pad);
  }, 60_000);
});

describe('closing the API (processes/apiServer.ts)', () => {
  it('ends the body workers the large bodies started', async () => {
    expect(jsonReadPool().running).toBeGreaterThan(0);
    closed = true;
    await app.close();
    expect(jsonReadPool().running).toBe(0);
  });
});
