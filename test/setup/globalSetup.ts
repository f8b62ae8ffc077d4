import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import readline from 'node:readline';

declare global {
  var __TEST_SERVICES__: ChildProcess | undefined;
}

/**
 * Starts real PostgreSQL and a real Temporal server (plus the shared worker) in a child process and
 * exports their addresses to every test worker through the environment.
 */
export default async function globalSetup(): Promise<void> {
  const root = path.resolve(__dirname, '../..');
  // `node --import tsx` rather than the tsx launcher: signals then reach the services process itself.
  const child = spawn(process.execPath, ['--import', 'tsx', 'tools/scripts/test-services.ts'], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error' },
  });
  globalThis.__TEST_SERVICES__ = child;
  const line = await new Promise<string>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.once('line', (first) => {
      lines.close();
      resolve(first);
    });
    child.once('exit', (code) => reject(new Error(`test services exited with code ${code}`)));
  });
  const env = JSON.parse(line) as Record<string, string>;
  Object.assign(process.env, env, {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    JWT_SECRET: randomBytes(32).toString('hex'),
    RATE_LIMIT_AUTH: '1000000',
    RATE_LIMIT_INVITES_PER_OPERATOR: '1000000',
    RATE_LIMIT_INVITES_PER_MEMBER: '1000000',
    RATE_LIMIT_INVITES_PUBLIC: '1000000',
    API_KEY_USAGE_FLUSH_MS: '200',
    PORT: '0',
    HOST: '127.0.0.1',
  });
}
