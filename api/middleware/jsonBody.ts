import type { Middleware } from 'koa';
import getRawBody from 'raw-body';
import { AppError } from '../errors';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Reads the body once, up to `limitBytes` (413 beyond), keeps the raw bytes on `ctx.request.rawBody`
 * (webhook signatures are computed over them) and parses JSON into `ctx.request.body`.
 * Malformed JSON is 400 `INVALID_JSON`; a non-JSON content type with a body is 415.
 */
export function jsonBody(limitBytes: number): Middleware {
  return async (ctx, next) => {
    ctx.request.body = undefined;
    if (!METHODS_WITH_BODY.has(ctx.method) || !ctx.request.length && !ctx.get('transfer-encoding')) {
      await next();
      return;
    }
    let raw: Buffer;
    try {
      raw = await getRawBody(ctx.req, { limit: limitBytes, length: ctx.request.length });
    } catch (error) {
      const type = (error as { type?: string }).type;
      if (type === 'entity.too.large') {
        throw new AppError(413, 'PAYLOAD_TOO_LARGE', `Request body exceeds the limit of ${limitBytes} bytes`);
      }
      throw new AppError(400, 'INVALID_BODY', 'Request body could not be read');
    }
    ctx.request.rawBody = raw;
    if (raw.length > 0) {
      const type = ctx.request.type;
      if (type !== '' && !ctx.request.is('application/json', '+json')) {
        throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
      }
      try {
        ctx.request.body = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new AppError(400, 'INVALID_JSON', 'Request body is not valid JSON');
      }
    }
    await next();
  };
}
