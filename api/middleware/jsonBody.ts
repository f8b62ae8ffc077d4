import type { Middleware } from 'koa';
import getRawBody from 'raw-body';
import { readJson, type JsonReading } from '../../core/jsonRead';
import { jsonReadPool } from '../../core/jsonReadPool';
import { acceptsFormBody, bodyDepthFor, inputErrorFor } from '../areas';
import { AppError } from '../errors';
import { defaultValidationError } from './validate';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A body's value from its reading (`core/jsonRead.ts`), or the refusal: a broken bound in the area's validation shape
 * naming the field; malformed JSON, and JSON whose text PostgreSQL cannot store, 400 `INVALID_JSON`.
 */
function valueOf(reading: JsonReading, path: string): unknown {
  if (reading.ok) return reading.value;
  if ('problem' in reading) {
    const field = reading.problem.path.join('.') || 'body';
    throw (inputErrorFor(path) ?? defaultValidationError)({ missing: [], problems: [{ field, message: reading.problem.message }] });
  }
  if (reading.invalid === 'malformed') throw new AppError(400, 'INVALID_JSON', 'Request body is not valid JSON');
  throw new AppError(400, 'INVALID_JSON', 'Request body contains text that cannot be stored: NUL characters or unpaired UTF-16 surrogates');
}

/**
 * A request body's text as the API takes JSON, for the webhook receiver (which parses once the signature over the raw
 * bytes is checked): checked against the nesting and number bounds of `core/jsonBounds.ts` — `JSON_MAX_DEPTH`, or the
 * deeper bound the path's endpoint declares — before it is parsed ({@link valueOf} for the refusals).
 */
export function parseJsonText(text: string, path: string): unknown {
  return valueOf(readJson(text, bodyDepthFor(path)), path);
}

/** A form body as an object of its fields; a field given twice keeps its first value (OAuth forbids repeats anyway). */
function formFields(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) if (!Object.hasOwn(fields, name) && name !== '__proto__') fields[name] = value;
  return fields;
}

/**
 * Reads the body once, up to `limitBytes` (413 beyond), keeps the raw bytes on `ctx.request.rawBody`
 * (webhook signatures are computed over them) and reads JSON into `ctx.request.body` as `parseJsonText` does (a large
 * body on a worker thread, `core/jsonReadPool.ts`);
 * a non-JSON content type with a body is 415.
 * Paths for which `rawOnly` is true get the raw bytes only (the webhook receiver checks the signature first).
 */
export function jsonBody(limitBytes: number, rawOnly: (path: string) => boolean = () => false): Middleware {
  return async (ctx, next) => {
    ctx.request.body = undefined;
    if (!METHODS_WITH_BODY.has(ctx.method) || (!ctx.request.length && !ctx.get('transfer-encoding'))) {
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
    if (raw.length > 0 && !rawOnly(ctx.path)) {
      const type = ctx.request.type;
      if (type === 'application/x-www-form-urlencoded' && acceptsFormBody(ctx.path)) {
        ctx.request.body = formFields(raw.toString('utf8'));
        await next();
        return;
      }
      if (type !== '' && type !== 'application/json' && !ctx.request.is('application/json', '+json')) {
        throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
      }
      // From 64 KiB on, on a body worker: the API's thread then only parses a text already checked.
      ctx.request.body = valueOf(await jsonReadPool().read(raw, bodyDepthFor(ctx.path)), ctx.path);
    }
    await next();
  };
}
