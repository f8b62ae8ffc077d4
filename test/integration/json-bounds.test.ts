import { createHmac } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, waitForRuns, type AutomationsClient } from '../helpers/automations';
import { http, type RequestOptions } from '../helpers/http';
import { kycDocument } from '../helpers/suppliers';

/** `levels` objects nested as `{"x":{"x":…leaf…}}`, as text: JSON.stringify would overflow building it. */
const nested = (levels: number, leaf = '1') => `${'{"x":'.repeat(levels)}${leaf}${'}'.repeat(levels)}`;
const DEEP = 100_000;
const tooDeepText = (depth: number) => `nests deeper than ${depth} levels of objects and arrays`;
/** The field a too-deep body is refused at: `prefix`, then the `x` keys of `nested` down to the bound. */
const deepField = (prefix: string[], depth = 64) => [...prefix, ...Array<string>(depth - prefix.length).fill('x')].join('.');
const validationFailed = (field: string, message: string) => ({
  success: false,
  error: { code: 'VALIDATION_FAILED', message: `Invalid input: ${field}: ${message}`, details: [{ field, message }] },
});
const post = (url: string, text: string, options: Omit<RequestOptions, 'rawBody'> = {}) =>
  http(url, { method: 'POST', ...options, rawBody: text, headers: { 'content-type': 'application/json', ...options.headers } });

let app: TestApp;
let acme: AutomationsClient;
let entityId: string;
beforeAll(async () => {
  app = await startTestApp();
  acme = await automationsClient(app);
  await acme.call('/entities', { body: { entityType: 'player', externalId: 'p-1', data: {} } });
  entityId = (await app.deps.db('entities').where({ operator_id: acme.operator.operatorId, external_id: 'p-1' }).first()).id;
});
afterAll(() => app.close());

describe('JSON nested 100,000 deep: 400 naming the field, in each area', () => {
  const depositWith = (meta: string) => `{"eventType":"transaction","data":{"type":"deposit","amount":5,"currency":"EUR","meta":${meta}}}`;

  it('data ingest: refused, nothing stored; at 64 levels accepted and stored as sent', async () => {
    const refused = await post(`${app.url}/operator-data-api/entities/p-1/events`, depositWith(nested(DEEP)), { token: acme.key });
    expect(refused).toMatchObject({ status: 400, body: validationFailed(deepField(['data', 'meta']), tooDeepText(64)) });
    expect(await app.deps.db('entity_events').where({ entity_id: entityId })).toHaveLength(0);

    const accepted = await post(`${app.url}/operator-data-api/entities/p-1/events`, depositWith(nested(62)), { token: acme.key });
    expect(accepted.status).toBe(201);
    const row = await app.deps.db('entity_events').where({ id: accepted.body.data.id }).first();
    expect(JSON.stringify(row.data.meta)).toBe(nested(62));
  });

  it('gateway: refused before the connection is looked up', async () => {
    const body = `{"connectionId":"conn_none","operation":"kyc.status","params":${nested(DEEP)}}`;
    expect(await post(`${app.url}/gateway`, body, { token: acme.key })).toMatchObject({
      status: 400,
      body: validationFailed(deepField(['params']), tooDeepText(64)),
    });
  });

  it('workflows API: a definition is refused; within its params bound (32 levels) it is saved whole', async () => {
    const definition = (params: string) =>
      `{"name":"Deep","nodes":[{"id":"start","type":"trigger.manual","params":{}},` +
      `{"id":"send","type":"action.http_request","params":{"method":"POST","url":"https://example.com/hook","body":${params}}}],` +
      `"edges":[{"from":"start","to":"send"}]}`;
    const refused = await post(`${app.url}/workflows-api/workflows`, definition(nested(DEEP)), { token: acme.key });
    expect(refused).toMatchObject({ status: 400, body: validationFailed(deepField(['nodes', '1', 'params', 'body']), tooDeepText(64)) });
    expect(await app.deps.db('automations').where({ operator_id: acme.operator.operatorId, name: 'Deep' })).toHaveLength(0);

    const saved = await post(`${app.url}/workflows-api/workflows`, definition(nested(31)), { token: acme.key });
    expect(saved.status).toBe(201);
    const row = await app.deps.db('automations').where({ id: saved.body.data.id }).first();
    expect(JSON.stringify(row.nodes[1].params.body)).toBe(nested(31));
  });

  it('expression preview: the sample is refused (no longer a 503 from the sandbox); at 64 levels it evaluates', async () => {
    const preview = (sample: string) => `{"expression":"$exists(trigger.x)","kind":"condition","sample":${sample}}`;
    expect(await post(`${app.url}/workflows-api/expressions/preview`, preview(nested(DEEP)), { token: acme.key })).toMatchObject({
      status: 400,
      body: validationFailed(deepField(['sample']), tooDeepText(64)),
    });
    expect(await post(`${app.url}/workflows-api/expressions/preview`, preview(nested(63)), { token: acme.key })).toMatchObject({
      status: 200,
      body: { success: true, data: { ok: true, value: true } },
    });
  });

  it('webhook receiver: refused after its signature over the raw bytes is checked; at 64 levels the run gets the body', async () => {
    const secret = 'whsec-bounds-0123456789';
    const workflow = await acme.create({
      name: 'Deep hook',
      nodes: [
        { id: 'hook', type: 'trigger.webhook', params: { secret } },
        { id: 'mark', type: 'action.set_state', params: { externalId: 'p-1', key: 'risk_score', value: 7 } },
      ],
      edges: [{ from: 'hook', to: 'mark' }],
    });
    const url = `${app.url}/webhook-receiver/${workflow.nodes[0].params.webhookId}`;
    const signed = (text: string) => post(url, text, { headers: { 'x-service-signature': createHmac('sha256', secret).update(text).digest('hex') } });

    const deep = `{"ref":"r-1","payload":${nested(DEEP)}}`;
    expect((await post(url, deep)).status).toBe(401);
    expect(await signed(deep)).toMatchObject({ status: 400, body: validationFailed(deepField(['payload']), tooDeepText(64)) });
    expect((await acme.wf(`/workflows/${workflow.id}/runs`)).body.count).toBe(0);

    const allowed = `{"ref":"r-2","payload":${nested(63)}}`;
    const accepted = await signed(allowed);
    expect(accepted.status).toBe(202);
    const [run] = await waitForRuns(acme, workflow.id, 1);
    expect(run).toMatchObject({ id: accepted.body.data.runId, source: 'webhook', status: 'completed' });
    expect(JSON.stringify(run.input)).toBe(allowed);
  });

  it('auth: signup in the coded shape, the token endpoint in OAuth’s', async () => {
    const credentials = (extra: string) => `{"email":"deep@example.test","password":"a-long-password","extra":${extra}}`;
    expect(await post(`${app.url}/auth/v1/signup`, credentials(nested(DEEP)))).toMatchObject({
      status: 400,
      body: validationFailed(deepField(['extra']), tooDeepText(64)),
    });
    const token = await post(`${app.url}/auth/v1/token?grant_type=password`, credentials(nested(DEEP)));
    expect(token).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: `${deepField(['extra'])}: ${tooDeepText(64)}` } });
    expect(await app.deps.db('users').where({ email: 'deep@example.test' })).toHaveLength(0);
  });

  it('key management and team management: their own error shapes', async () => {
    const operator = { token: acme.operator.accessToken };
    expect(await post(`${app.url}/api-keys`, `{"operatorId":"x","label":${nested(DEEP)}}`, operator)).toMatchObject({
      status: 400,
      body: { success: false, error: `Invalid input: ${deepField(['label'])}: ${tooDeepText(64)}` },
    });
    expect(await post(`${app.url}/platform-api/operators/me/invites`, `{"email":"a@b.test","role":${nested(DEEP)}}`, operator)).toMatchObject({
      status: 400,
      body: { success: false, code: 'INVALID_INPUT', error: `Invalid input: ${deepField(['role'])} ${tooDeepText(64)}` },
    });
  });
});

describe('connectors: OpenAPI documents nest up to 255 levels', () => {
  const connector = (openapi: string) => `{"name":"Deep supplier","provider":"deep","openapi":${openapi}}`;
  const documentWith = (deep: string) => JSON.stringify(kycDocument('https://kyc.example', { kind: 'bearer', token: 't' })).replace(/}$/, `,"x-deep":${deep}}`);
  const connectors = () => app.deps.db('connectors').where({ operator_id: acme.operator.operatorId, provider: 'deep' });

  it('a document object nested 100,000 deep is refused at the route’s bound of 256, as text at 255', async () => {
    expect(await post(`${app.url}/connections-api/connectors`, connector(documentWith(nested(DEEP))), { token: acme.key })).toMatchObject({
      status: 400,
      body: validationFailed(deepField(['openapi', 'x-deep'], 256), tooDeepText(256)),
    });
    const yamlText = JSON.stringify(`${'['.repeat(DEEP)}${']'.repeat(DEEP)}`);
    expect(await post(`${app.url}/connections-api/connectors`, connector(yamlText), { token: acme.key })).toMatchObject({
      status: 400,
      body: { success: false, error: { code: 'INVALID_OPENAPI', message: `Invalid OpenAPI document: ${tooDeepText(255)}` } },
    });
    expect(await connectors()).toHaveLength(0);
  });

  it('a document of 255 levels is accepted, as an object and as text, and stored as sent', async () => {
    const asObject = await post(`${app.url}/connections-api/connectors`, connector(documentWith(nested(254))), { token: acme.key });
    expect(asObject.status).toBe(201);
    const asText = await post(`${app.url}/connections-api/connectors`, connector(JSON.stringify(documentWith(nested(254)))), { token: acme.key });
    expect(asText.status).toBe(201);
    const rows = await connectors();
    expect(rows.map((row) => JSON.stringify(row.openapi['x-deep']))).toEqual([nested(254), nested(254)]);
  });
});

describe('numbers beyond a double: 400 naming the field, never stored as null or 0', () => {
  const beyond = 'is beyond ±1.7976931348623157e+308, the largest magnitude a number may have';
  const state = () => app.deps.db('entity_states').where({ entity_id: entityId, state_key: 'balance' }).first();
  const putBalance = (text: string) =>
    http(`${app.url}/operator-data-api/entities/p-1/state/balance`, {
      method: 'PUT',
      token: acme.key,
      rawBody: text,
      headers: { 'content-type': 'application/json' },
    });

  it.each([
    ['{"value":1e309}', 'value'],
    ['{"value":-1e309}', 'value'],
    ['{"value":{"cash":[1,2,-1E400]}}', 'value.cash.2'],
    ['1e309', 'body'],
  ])('PUT state %s is refused at %s and nothing is stored', async (text, field) => {
    expect(await putBalance(text)).toMatchObject({ status: 400, body: validationFailed(field, beyond) });
    expect(await state()).toBeUndefined();
  });

  it('PUT state at the largest double is stored exactly', async () => {
    expect(await putBalance('{"value":-1.7976931348623157e308}')).toMatchObject({
      status: 200,
      body: { success: true, data: { state_key: 'balance', value: -Number.MAX_VALUE } },
    });
    expect((await state()).value).toBe(-Number.MAX_VALUE);
  });

  it('an event amount of ±1e309, or a non-zero that would become 0, is refused; nothing is stored', async () => {
    const event = (amount: string) => `{"eventType":"transaction","data":{"type":"deposit","amount":${amount},"currency":"EUR"}}`;
    const url = `${app.url}/operator-data-api/entities/p-1/events`;
    const before = await app.deps.db('entity_events').where({ entity_id: entityId });
    expect(await post(url, event('1e309'), { token: acme.key })).toMatchObject({ status: 400, body: validationFailed('data.amount', beyond) });
    expect(await post(url, event('-1e309'), { token: acme.key })).toMatchObject({ status: 400, body: validationFailed('data.amount', beyond) });
    expect(await post(url, event('1e-400'), { token: acme.key })).toMatchObject({
      status: 400,
      body: validationFailed('data.amount', 'is closer to zero than 5e-324, the smallest magnitude a non-zero number may have'),
    });
    expect(await app.deps.db('entity_events').where({ entity_id: entityId })).toHaveLength(before.length);
  });
});
