import { startTestApp, type TestApp } from '../helpers/app';
import { createFaultyDatabase, type FaultyDatabase } from '../helpers/faultyDatabase';
import { http } from '../helpers/http';
import { createApiKey, signupOperator, type TestOperator } from '../helpers/identity';

/**
 * The 500 rows of spec 7.1, triggered from outside: the app runs on a database of its own whose
 * api_keys table is then taken away, so every key query fails for real (sessions still work).
 */
let faulty: FaultyDatabase;
let app: TestApp;
let owner: TestOperator;
let keyId: string;
const logLines: string[] = [];

beforeAll(async () => {
  faulty = await createFaultyDatabase();
  app = await startTestApp({ DATABASE_URL: faulty.url }, { logLines });
  owner = await signupOperator(app.url);
  keyId = (await createApiKey(app.url, owner)).id;
  await faulty.db.raw('ALTER TABLE api_keys RENAME TO api_keys_unavailable');
});

afterAll(async () => {
  await app.close();
  await faulty.drop();
});

describe('database errors on key management', () => {
  const cases: Array<[string, () => Parameters<typeof http>]> = [
    ['Failed to create key', () => [`${app.url}/api-keys`, { token: owner.accessToken, body: { operatorId: owner.operatorId } }]],
    ['Failed to list keys', () => [`${app.url}/api-keys`, { token: owner.accessToken }]],
    ['Failed to rename key', () => [`${app.url}/api-keys`, { method: 'PATCH', token: owner.accessToken, body: { id: keyId, label: 'x' } }]],
    ['Failed to revoke key', () => [`${app.url}/api-keys?id=${keyId}`, { method: 'DELETE', token: owner.accessToken }]],
    ['Failed to delete key', () => [`${app.url}/api-keys?id=${keyId}&hard=true`, { method: 'DELETE', token: owner.accessToken }]],
  ];

  it.each(cases)('500 %s, with no stack, query or table name in the body', async (text, request) => {
    const response = await http(...request());
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ success: false, error: text });
    expect(response.text).not.toMatch(/api_keys|select|stack|at /i);
  });

  it('logs the cause server-side without secrets', () => {
    const errors = logLines.map((line) => JSON.parse(line)).filter((entry) => entry.level >= 50);
    expect(errors.length).toBeGreaterThanOrEqual(5);
    const all = logLines.join('\n');
    expect(all).not.toContain(owner.accessToken);
    expect(all).not.toContain(owner.password);
    expect(all).not.toContain(owner.refreshToken);
  });
});
