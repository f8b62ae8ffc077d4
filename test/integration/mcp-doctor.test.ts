import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { diagnose, type HostReport } from '../../tools/scripts/mcpDoctor/diagnose';
import type { TestApp } from '../helpers/app';
import { freePort, startOAuthApp } from '../helpers/mcpOAuth';

const run = promisify(execFile);

type Breakage = 'none' | 'strip-challenge' | 'no-root-metadata' | 'rewrite-resource' | 'no-s256' | 'https-redirects-only';

let app: TestApp;
let fronted: TestApp;
let front: Server;
let frontUrl: string;
let breakage: Breakage = 'none';

/** A reverse proxy in front of the API, the one URL `APP_URL` names, that breaks one thing a host relies on at a time. */
async function startFront(port: number, target: () => string): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const path = req.url ?? '/';
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name !== 'host' && name !== 'content-length')) as Record<
        string,
        string
      >;
      if (breakage === 'no-root-metadata' && path === '/.well-known/oauth-protected-resource') return void res.writeHead(404).end();
      if (breakage === 'https-redirects-only' && path === '/oauth/register') {
        const uris = (JSON.parse(Buffer.concat(chunks).toString()) as { redirect_uris: string[] }).redirect_uris;
        if (uris.some((uri) => !uri.startsWith('https://'))) {
          return void res
            .writeHead(400, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: 'invalid_redirect_uri', error_description: 'https only' }));
        }
      }
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const answer = await fetch(`${target()}${path}`, { method: req.method, headers, body, redirect: 'manual' });
      let text = await answer.text();
      const out = Object.fromEntries([...answer.headers].filter(([name]) => !['content-length', 'content-encoding', 'transfer-encoding'].includes(name)));
      if (breakage === 'strip-challenge') delete out['www-authenticate'];
      if (breakage === 'rewrite-resource' && path.startsWith('/.well-known/oauth-protected-resource'))
        text = text.replace(/"resource":"[^"]*"/, '"resource":"https://elsewhere.example/mcp-server"');
      if (breakage === 'no-s256' && path.startsWith('/.well-known/')) text = text.replace('"S256"', '"plain"');
      res.writeHead(answer.status, out).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

beforeAll(async () => {
  app = await startOAuthApp();
  const port = await freePort();
  frontUrl = `http://127.0.0.1:${port}`;
  fronted = await startOAuthApp({ APP_URL: frontUrl });
  front = await startFront(port, () => fronted.url);
  expect((front.address() as AddressInfo).port).toBe(port);
}, 120_000);
afterAll(async () => {
  await new Promise((resolve) => front?.close(resolve));
  await Promise.all([app?.close(), fronted?.close()]);
});

const faults = (reports: HostReport[]) => Object.fromEntries(reports.map((report) => [report.host.id, report.fault?.check ?? 'ready']));

describe('npm run mcp:doctor', () => {
  it('finds every host ready against the platform: challenge, metadata at each form, registration with each host’s redirect URIs, authorize, token', async () => {
    const reports = await diagnose(`${app.url}/mcp-server`);
    expect(faults(reports)).toEqual({ claude: 'ready', chatgpt: 'ready', vscode: 'ready', cursor: 'ready', 'claude-code': 'ready', 'sdk-2026': 'ready' });
    const vscode = reports.find((report) => report.host.id === 'vscode')!;
    expect(vscode.steps.map((step) => step.check)).toEqual([
      'transport',
      '401 challenge (2025-06-18)',
      '401 challenge (2025-11-25)',
      'protected-resource metadata',
      'authorization-server metadata',
      'dynamic registration',
      'authorize',
      'token endpoint',
    ]);
    expect(vscode.steps[3]!.detail).toContain(`${app.url}/.well-known/oauth-protected-resource:`);
  });

  it.each([
    ['strip-challenge', { claude: '401 challenge (2025-06-18)', 'sdk-2026': '401 challenge (2026-07-28)' }],
    ['no-root-metadata', { vscode: 'protected-resource metadata', claude: 'ready', cursor: 'ready' }],
    ['rewrite-resource', { claude: 'resource', chatgpt: 'resource', vscode: 'resource' }],
    ['no-s256', { claude: 'PKCE', cursor: 'PKCE' }],
    ['https-redirects-only', { vscode: 'redirect URI', cursor: 'redirect URI', 'claude-code': 'redirect URI', claude: 'ready', chatgpt: 'ready' }],
  ] as const)('names the first fault behind a front that breaks one thing: %s', async (broken, expected) => {
    breakage = broken;
    try {
      const reports = await diagnose(`${frontUrl}/mcp-server`);
      expect(faults(reports)).toMatchObject(expected);
    } finally {
      breakage = 'none';
    }
  });

  it('as a command: prints each host and exits 0 when all can connect, 1 naming the fault when one cannot', async () => {
    const ok = await run(process.execPath, ['--import', 'tsx', 'tools/scripts/mcp-doctor.ts', `${app.url}/mcp-server`, '--host', 'claude'], {
      timeout: 60_000,
    });
    expect(ok.stdout).toContain('✓ Claude (claude.ai / claude.com connectors) — ready to connect');
    breakage = 'rewrite-resource';
    try {
      const failed = run(process.execPath, ['--import', 'tsx', 'tools/scripts/mcp-doctor.ts', `${frontUrl}/mcp-server`, '--host', 'chatgpt'], {
        timeout: 60_000,
      });
      await expect(failed).rejects.toMatchObject({ code: 1, stdout: expect.stringContaining('✗ ChatGPT (apps / connectors) — first fault: resource') });
    } finally {
      breakage = 'none';
    }
  });
});
