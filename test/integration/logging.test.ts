import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createApiKey, signupOperator } from '../helpers/identity';

const logLines: string[] = [];
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({}, { logLines });
});
afterAll(() => app.close());

describe('structured logs', () => {
  it('are JSON lines with a request id, and never contain keys, passwords, tokens or emails', async () => {
    const owner = await signupOperator(app.url);
    const key = await createApiKey(app.url, owner);
    await http(`${app.url}/api-keys`, { token: key.key });
    const login = await http(`${app.url}/auth/v1/token?grant_type=password`, { body: { email: owner.email, password: owner.password } });
    await http(`${app.url}/auth/v1/token?grant_type=refresh_token`, { body: { refresh_token: login.body.refresh_token } });
    await http(`${app.url}/auth/v1/token?grant_type=password`, { body: { email: owner.email, password: 'wrong-password' } });
    await http(`${app.url}/api-keys?id=${key.id}&secret=${key.key}`, { method: 'DELETE', token: owner.accessToken });

    const entries = logLines.map((line) => JSON.parse(line));
    const requests = entries.filter((entry) => entry.msg === 'request');
    expect(requests.length).toBeGreaterThanOrEqual(6);
    for (const entry of requests) expect(entry).toMatchObject({ requestId: expect.any(String), method: expect.any(String), status: expect.any(Number) });

    const all = logLines.join('\n');
    for (const secret of [
      key.key,
      owner.password,
      owner.accessToken,
      owner.refreshToken,
      login.body.access_token,
      login.body.refresh_token,
      owner.email,
      'wrong-password',
    ]) {
      expect(all).not.toContain(secret);
    }
  });
});
