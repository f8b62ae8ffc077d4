/**
 * What `npm run fuzz` (Schemathesis against /openapi.json) found, one test each: the inputs are the
 * shrunk cases it reported, the expectations what the document says.
 */
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createApiKey, signupOperator, type TestOperator } from '../helpers/identity';

let app: TestApp;
let owner: TestOperator;
let apiKey: string;

beforeAll(async () => {
  app = await startTestApp();
  owner = await signupOperator(app.url, 'Fuzz Casino');
  apiKey = (await createApiKey(app.url, owner)).key;
  const templates = await http(`${app.url}/operator-data-api/templates`, { token: apiKey });
  const selected = await http(`${app.url}/operator-data-api/settings`, { method: 'PUT', token: apiKey, body: { templateId: templates.body.data[0].id } });
  expect(selected.status).toBe(200);
});
afterAll(() => app.close());

describe('connections-api: a baseUrl that is not a URL', () => {
  it('is 400 VALIDATION_FAILED on create and update, not 500', async () => {
    const created = await http(`${app.url}/connections-api/connections`, {
      token: apiKey,
      body: { connectorId: '0', name: '0', credentials: {}, baseUrl: '', active: false },
    });
    expect(created.status).toBe(400);
    expect(created.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: expect.arrayContaining([expect.objectContaining({ field: 'baseUrl' })]) });
    const updated = await http(`${app.url}/connections-api/connections/0`, { method: 'PATCH', token: apiKey, body: { name: '0', baseUrl: '', active: false } });
    expect(updated.status).toBe(400);
    expect(updated.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: expect.arrayContaining([expect.objectContaining({ field: 'baseUrl' })]) });
  });
});

describe('JSON text PostgreSQL cannot store (NUL, unpaired surrogates)', () => {
  it.each([
    ['a NUL character', '[{"externalId":"p1","eventType":"bet","data":{"note":"a\\u0000b"}}]'],
    ['an unpaired surrogate in a value', '[{"externalId":"p1","eventType":"bet","data":{"note":"\\udbcc"}}]'],
    ['an unpaired surrogate in a key', '[{"externalId":"p1","eventType":"bet","data":{"\\ud840x":1}}]'],
  ])('%s in a batch is 400 INVALID_JSON, not 500', async (_label, rawBody) => {
    const response = await http(`${app.url}/operator-data-api/batch/events`, { token: apiKey, rawBody, headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: { code: 'INVALID_JSON', message: 'Request body contains text that cannot be stored: NUL characters or unpaired UTF-16 surrogates' },
    });
  });

  it('paired surrogates (emoji) are accepted', async () => {
    const response = await http(`${app.url}/operator-data-api/batch/events`, {
      token: apiKey,
      rawBody: '[{"externalId":"p1","eventType":"bet","data":{"note":"\\ud83c\\udfb0 🎰"}}]',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).not.toBe(500);
    expect(response.body.error?.code).not.toBe('INVALID_JSON');
  });
});

describe('NUL characters in query and path parameters', () => {
  it('analytics /players?search=…%00 is 400 INVALID_PARAM, not 500', async () => {
    const response = await http(`${app.url}/functions/v1/analytics-api/analytics/players?entity_type=player&search=a%00b&format=csv`, { token: apiKey });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, error: expect.objectContaining({ code: 'INVALID_PARAM', message: expect.stringContaining('search') }) });
  });

  it('a data API path parameter with %00 is 400 VALIDATION_FAILED', async () => {
    const response = await http(`${app.url}/operator-data-api/entities/p%001/state`, { token: apiKey });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_FAILED',
        message: 'Invalid input: externalId: must not contain NUL characters',
        details: [{ field: 'externalId', message: 'must not contain NUL characters' }],
      },
    });
  });
});
