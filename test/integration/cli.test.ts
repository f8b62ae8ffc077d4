import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('npm run cli -- bootstrap', () => {
  it('prints one JSON line whose key and credentials work against the API', async () => {
    const email = `boot-${randomUUID()}@example.test`;
    const { stdout } = await run(
      path.join(root, 'node_modules/.bin/tsx'),
      ['processes/cli.ts', 'bootstrap', '--org', 'Headless Ltd', '--email', email, '--password', 'bootstrap-pass'],
      {
        cwd: root,
        env: process.env,
      },
    );
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const result = JSON.parse(lines[0]!);
    expect(result).toEqual({ operatorId: expect.any(String), userId: expect.any(String), apiKey: expect.stringMatching(/^svc_live_[0-9a-f]{64}$/) });

    const keys = await http(`${app.url}/api-keys`, { token: result.apiKey });
    expect(keys.status).toBe(200);
    expect(keys.body.data[0]).toMatchObject({ operatorId: result.operatorId, label: 'bootstrap' });
    const login = await http(`${app.url}/auth/v1/token?grant_type=password`, { body: { email, password: 'bootstrap-pass' } });
    expect(login.body.user).toEqual({ id: result.userId, email });
  });

  it('exits non-zero with a clear message for bad arguments', async () => {
    await expect(
      run(path.join(root, 'node_modules/.bin/tsx'), ['processes/cli.ts', 'bootstrap', '--org', 'X', '--email', 'nope', '--password', 'short'], {
        cwd: root,
        env: process.env,
      }),
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('--email must be an email address') });
  });
});
