import cors from '@koa/cors';
import type { Middleware } from 'koa';

/** Besides the platform's own headers, the ones supabase-js sends from a browser (`apikey`, `X-Client-Info`, `X-Supabase-Api-Version`). */
export const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'Mcp-Session-Id',
  'MCP-Protocol-Version',
  'X-Request-Id',
  'X-Service-Signature',
  'Last-Event-ID',
  'apikey',
  'X-Client-Info',
  'X-Supabase-Api-Version',
];
export const EXPOSED_HEADERS = ['Retry-After', 'X-Request-Id', 'Mcp-Session-Id'];

/**
 * CORS for every route, preflight included: the request's origin is echoed when allowed
 * (`ALLOWED_ORIGINS`, default any) and no CORS header is sent for other origins. Paths for which `skip`
 * is true keep a CORS policy of their own (the Temporal codec endpoint).
 */
export function corsFor(allowedOrigins: '*' | string[], skip: (path: string) => boolean = () => false): Middleware {
  const handler = cors({
    origin: (ctx) => {
      const origin = ctx.get('origin');
      if (!origin) return '';
      return allowedOrigins === '*' || allowedOrigins.includes(origin) ? origin : '';
    },
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowHeaders: ALLOWED_HEADERS,
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 600,
    keepHeadersOnError: true,
  });
  return (ctx, next) => (skip(ctx.path) ? next() : handler(ctx, next));
}
