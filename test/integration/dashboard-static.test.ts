import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import Router from '@koa/router';
import Koa from 'koa';
import { apiSegmentsOf, dashboard, type DashboardConfig } from '../../api/dashboard/static';
import { findDashboardDir } from '../../api/dashboard/files';

/**
 * The static-serving middleware on a real HTTP server with a fixture build (the real build is served by
 * the real app in test/e2e): cache headers, precompressed variants, the single-page fallback and the
 * paths that must stay the API's.
 */
const SCRIPT = 'console.log("dashboard");'.repeat(50);
const config: DashboardConfig = { temporalUiUrl: 'http://127.0.0.1:8233', temporalNamespace: 'default' };
let dir: string;
let server: http.Server;
let base: string;

function startServer(distDir: string | undefined): Promise<{ server: http.Server; url: string }> {
  const app = new Koa();
  app.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      ctx.status = 404;
      ctx.body = { success: false, error: { code: 'NOT_FOUND', message: 'Route not found' } };
    }
  });
  const api = new Router({ prefix: '/workflows-api' });
  api.get('/workflows', (ctx) => void (ctx.body = { success: true, data: [] }));
  app.use(dashboard({ dir: distDir, config, apiSegments: apiSegmentsOf([api]) }));
  app.use(api.routes());
  const listening = app.listen(0, '127.0.0.1');
  return new Promise((resolve) =>
    listening.once('listening', () => resolve({ server: listening, url: `http://127.0.0.1:${(listening.address() as AddressInfo).port}` })),
  );
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dashboard-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><!--app-config--></head><body><div id="root"></div></body></html>');
  writeFileSync(path.join(dir, 'assets/index-AbC123.js'), SCRIPT);
  writeFileSync(path.join(dir, 'assets/index-AbC123.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(path.join(dir, 'assets/index-AbC123.js.gz'), gzipSync(SCRIPT));
  writeFileSync(path.join(dir, 'robots.txt'), 'User-agent: *\n');
  writeFileSync(path.join(os.tmpdir(), 'outside.txt'), 'secret');
  ({ server, url: base } = await startServer(dir));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

describe('the dashboard page', () => {
  it('GET / is index.html with the app config, no-cache and the page security headers', async () => {
    const response = await fetch(`${base}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    const body = await response.text();
    expect(body).toContain('<script id="app-config" type="application/json">{"temporalUiUrl":"http://127.0.0.1:8233","temporalNamespace":"default"}</script>');
    // node:http rather than fetch: fetch adds `Cache-Control: no-cache` to a request carrying If-None-Match.
    const again = await new Promise<http.IncomingMessage>((resolve) =>
      http.get(`${base}/`, { headers: { 'if-none-match': response.headers.get('etag')! } }, resolve),
    );
    expect(again.statusCode).toBe(304);
    again.resume();
  });

  it('a browser navigation to a client-side route gets index.html; the same path asking for JSON gets the JSON 404', async () => {
    const page = await fetch(`${base}/workflows/wf_123/runs`, { headers: html });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const json = await fetch(`${base}/workflows/wf_123/runs`);
    expect(json.status).toBe(404);
    expect(await json.json()).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'Route not found' } });
  });

  it("API paths stay the API's, for browsers too: routes answer JSON, unknown ones the JSON 404", async () => {
    const served = await fetch(`${base}/workflows-api/workflows`, { headers: html });
    expect(await served.json()).toEqual({ success: true, data: [] });
    for (const route of ['/workflows-api/nope', '/functions/v1/workflows']) {
      const response = await fetch(`${base}${route}`, { headers: html });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/json');
    }
  });

  it('POST / is not the page', async () => {
    expect((await fetch(`${base}/`, { method: 'POST' })).status).toBe(404);
  });

  it('without a build, / is a 503 page saying how to build it', async () => {
    const bare = await startServer(undefined);
    try {
      const response = await fetch(`${bare.url}/`);
      expect(response.status).toBe(503);
      expect(await response.text()).toContain('npm run build:web');
    } finally {
      await new Promise((resolve) => bare.server.close(resolve));
    }
  });
});

describe('assets', () => {
  it('hashed assets are immutable, Brotli when accepted, gzip otherwise, identity when neither', async () => {
    const brotli = await new Promise<http.IncomingMessage>((resolve) =>
      http.get(`${base}/assets/index-AbC123.js`, { headers: { 'accept-encoding': 'gzip, deflate, br' } }, resolve),
    );
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toContain('Accept-Encoding');
    const chunks: Buffer[] = [];
    for await (const chunk of brotli) chunks.push(chunk as Buffer);
    expect(brotliDecompressSync(Buffer.concat(chunks)).toString()).toBe(SCRIPT);

    const gzip = await new Promise<http.IncomingMessage>((resolve) =>
      http.get(`${base}/assets/index-AbC123.js`, { headers: { 'accept-encoding': 'gzip' } }, resolve),
    );
    expect(gzip.headers['content-encoding']).toBe('gzip');
    gzip.resume();
    const plain = await new Promise<http.IncomingMessage>((resolve) =>
      http.get(`${base}/assets/index-AbC123.js`, { headers: { 'accept-encoding': 'identity' } }, resolve),
    );
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(SCRIPT.length);
    plain.resume();
  });

  it('HEAD answers the headers and length without a body', async () => {
    const response = await fetch(`${base}/assets/index-AbC123.js`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(SCRIPT.length));
    expect(await response.text()).toBe('');
  });

  it('other files are cached for an hour', async () => {
    const response = await fetch(`${base}/robots.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('a missing asset is the JSON 404, never index.html, even for a browser', async () => {
    const response = await fetch(`${base}/assets/index-missing.js`, { headers: html });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
  });

  it('nothing outside the build is reachable: dot segments, encoded ones, NUL', async () => {
    for (const attempt of ['/assets/%2e%2e/%2e%2e/outside.txt', '/..%2f..%2foutside.txt', '/assets/index-AbC123.js%00.txt']) {
      const response = await fetch(`${base}${attempt}`);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('secret');
    }
  });
});

describe('findDashboardDir', () => {
  it('finds web/dist from the sources (tsx) and from the compiled output (dist/api/dashboard)', () => {
    const rootDir = mkdtempSync(path.join(os.tmpdir(), 'repo-'));
    mkdirSync(path.join(rootDir, 'web/dist'), { recursive: true });
    writeFileSync(path.join(rootDir, 'web/dist/index.html'), '<!doctype html>');
    expect(findDashboardDir(path.join(rootDir, 'api/dashboard'))).toBe(path.join(rootDir, 'web/dist'));
    expect(findDashboardDir(path.join(rootDir, 'dist/api/dashboard'))).toBe(path.join(rootDir, 'web/dist'));
    expect(findDashboardDir(path.join(os.tmpdir(), 'nowhere/api/dashboard'))).toBeUndefined();
    rmSync(rootDir, { recursive: true, force: true });
  });
});
