import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { FUNCTIONS_PREFIX } from '../areas';
import type { Config } from '../../core/config';
import { encodedVariant, fileFor, findDashboardDir } from './files';

/** What the dashboard learns from the server at load time (no extra request): `<script id="app-config">`. */
export interface DashboardConfig {
  /** Base URL of the Temporal Web UI, when one is configured; runs link to it. */
  temporalUiUrl: string | null;
  temporalNamespace: string;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * The page runs only its own bundle; inline `style` attributes are allowed because the graph editor
 * positions nodes with them. No referrer: accept-invite links carry their token in the query.
 */
const PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-cache',
};

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Operator Platform</title></head>
<body><main><h1>The dashboard is not built</h1><p>Run <code>npm run build:web</code> (or <code>npm start</code>, which builds it when needed) and reload.</p></main></body></html>`;

/** The first path segment of every API route (`/auth`, `/workflows-api`, …): those paths always stay JSON. */
export function apiSegmentsOf(routers: Router[]): Set<string> {
  const segments = new Set<string>([FUNCTIONS_PREFIX.split('/')[1] ?? 'functions']);
  for (const router of routers) {
    for (const layer of router.stack) {
      const first = String(layer.path).split('/')[1];
      if (first) segments.add(first);
    }
  }
  return segments;
}

function injectConfig(html: string, config: DashboardConfig): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return html.replace('<!--app-config-->', `<script id="app-config" type="application/json">${json}</script>`);
}

function sendPage(ctx: Context, dir: string | undefined, config: DashboardConfig): void {
  ctx.set(PAGE_HEADERS);
  ctx.type = 'text/html; charset=utf-8';
  if (!dir) {
    ctx.status = 503;
    ctx.body = NOT_BUILT;
    return;
  }
  const body = injectConfig(readFileSync(path.join(dir, 'index.html'), 'utf8'), config);
  ctx.status = 200;
  ctx.etag = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = body;
}

function sendFile(ctx: Context, found: { file: string; type: string }, cacheControl: string): void {
  const variant = encodedVariant(found.file, ctx.get('accept-encoding'));
  const file = variant?.file ?? found.file;
  ctx.set('Cache-Control', cacheControl);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.vary('Accept-Encoding');
  if (variant) ctx.set('Content-Encoding', variant.encoding);
  ctx.type = found.type;
  const size = statSync(file).size;
  ctx.body = ctx.method === 'HEAD' ? '' : createReadStream(file);
  ctx.length = size;
}

/**
 * Serves the dashboard (`web/dist`, built by `npm run build:web`) at `/`: hashed `/assets/…` as
 * immutable, other files for an hour, and `index.html` (no-cache, with the app config) at `/` and, as
 * the single-page app's fallback, at any other path a browser navigates to. Paths under an API route's
 * first segment, under `/functions/v1`, and requests that do not ask for HTML fall through to the API
 * and its JSON 404s.
 */
export function dashboard(options: { dir: string | undefined; config: DashboardConfig; apiSegments: Set<string> }): Middleware {
  const { dir, config, apiSegments } = options;
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const first = ctx.path.split('/')[1] ?? '';
    if (apiSegments.has(first) || ctx.originalUrl.startsWith(`${FUNCTIONS_PREFIX}/`) || ctx.originalUrl === FUNCTIONS_PREFIX) return next();
    if (ctx.path === '/' || ctx.path === '/index.html') return sendPage(ctx, dir, config);
    const found = dir ? fileFor(dir, ctx.path) : undefined;
    if (found && path.basename(found.file) !== 'index.html') return sendFile(ctx, found, ctx.path.startsWith('/assets/') ? IMMUTABLE : 'public, max-age=3600');
    if (first === 'assets' || !ctx.get('accept').includes('text/html')) return next();
    return sendPage(ctx, dir, config);
  };
}

/** The dashboard as the app mounts it: the built files found beside the code, the Temporal UI from `TEMPORAL_UI_URL`. */
export function dashboardFor(config: Pick<Config, 'TEMPORAL_UI_URL' | 'TEMPORAL_NAMESPACE'>, routers: Router[]): Middleware {
  return dashboard({
    dir: findDashboardDir(),
    config: { temporalUiUrl: config.TEMPORAL_UI_URL?.replace(/\/+$/, '') ?? null, temporalNamespace: config.TEMPORAL_NAMESPACE },
    apiSegments: apiSegmentsOf(routers),
  });
}
