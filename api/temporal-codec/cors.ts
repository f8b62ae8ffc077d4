import cors from '@koa/cors';
import type { Middleware } from 'koa';

export const TEMPORAL_CODEC_PREFIX = '/temporal-codec';

export const isTemporalCodecPath = (path: string) => path === TEMPORAL_CODEC_PREFIX || path.startsWith(`${TEMPORAL_CODEC_PREFIX}/`);

/**
 * CORS of the codec endpoint, in place of the app-wide `ALLOWED_ORIGINS`: only the Temporal Web UI's origin (from
 * `TEMPORAL_UI_URL`) is answered, with credentials allowed so the UI's "include cross-origin credentials" fetch
 * carries the codec session cookie. Any other origin gets no CORS header at all, so a browser never hands it a
 * decoded payload. Other paths pass through untouched.
 */
export function temporalCodecCors(temporalUiUrl: string | undefined): Middleware {
  const uiOrigin = temporalUiUrl ? new URL(temporalUiUrl).origin : null;
  const handler = cors({
    origin: (ctx) => (uiOrigin !== null && ctx.get('origin') === uiOrigin ? uiOrigin : ''),
    credentials: true,
    allowMethods: ['POST', 'OPTIONS'],
    allowHeaders: ['Content-Type', 'X-Namespace', 'Authorization'],
    maxAge: 600,
    keepHeadersOnError: true,
  });
  return (ctx, next) => (isTemporalCodecPath(ctx.path) ? handler(ctx, next) : next());
}
