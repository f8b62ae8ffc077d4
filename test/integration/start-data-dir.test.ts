import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** `npm start` as root (the script after its web build step), with DATA_DIR inside a `mktemp -d` directory (0700). */
(process.getuid?.() === 0 ? describe : describe.skip)('npm start as root with DATA_DIR where the postgres user cannot go', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'start-data-dir-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('stops at once with a message that says what to do, instead of initdb\'s "Permission denied"', async () => {
    const dataDir = path.join(root, '.data');
    const env: Record<string, string | undefined> = {
      ...process.env,
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: '0',
      DATABASE_URL: '',
      TEMPORAL_ADDRESS: '',
      PORT: '0',
    };
    const child = spawn(process.execPath, ['--import', 'tsx', 'processes/start.ts'], {
      cwd: path.resolve(__dirname, '../..'),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain(
      `Embedded PostgreSQL cannot use ${path.join(dataDir, 'postgres')}: running as root, it runs as the unprivileged user "postgres", which cannot enter ${root} (mode 0700).`,
    );
    expect(output).toContain(`chmod o+x ${root}`);
    expect(output).not.toContain('initdb');
  }, 60_000);
});
