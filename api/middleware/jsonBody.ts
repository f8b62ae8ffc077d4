import type { Middleware } from 'koa';
import getRawBody from 'raw-body';
import { findJsonBoundsProblem } from '../../core/jsonBounds';
import { acceptsFormBody, bodyDepthFor, inputErrorFor } from '../areas';
import { AppError } from '../errors';
import { defaultValidationError } from './validate';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * PostgreSQL text and jsonb refuse NUL and unpaired surrogates; JSON.parse lets both through (`\u0000`, `\ud800`).
 * It recurses: call it on a value whose depth is bounded (`parseJsonText` checks the text first).
 */
function hasUnstorableText(value: unknown): boolean {
  if (typeof value === 'string') return UNSTORABLE.test(value);
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(hasUnstorableText);
  return Object.entries(value).some(([key, entry]) => UNSTORABLE.test(key) || hasUnstorableText(entry));
}

/**
 * A request body's text as the API takes JSON, for the body parser and for the webhook receiver (which parses once
 * the signature over the raw bytes is checked). The text is checked first against the nesting and number bounds of
 * `core/jsonBounds.ts` — `JSON_MAX_DEPTH`, or the deeper bound the path's endpoint declares — and refused in the
 * area's validation shape naming the field, so nothing parses a body nested too deeply and no number turns silently
 * into `null` or 0. Malformed JSON, and JSON whose text PostgreSQL cannot store, is 400 `INVALID_JSON`.
 */
export function parseJsonText(text: string, path: string): unknown {
  const problem = findJsonBoundsProblem(text, bodyDepthFor(path));
  if (problem) {
    const field = problem.path.join('.') || 'body';
    throw (inputErrorFor(path) ?? defaultValidationError)({ missing: [], problems: [{ field, message: problem.message }] });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError(400, 'INVALID_JSON', 'Request body is not valid JSON');
  }
  // JSON can carry NUL or a lone surrogate only as a `\u` escape: decoded UTF-8 holds neither, and JSON.parse refuses raw control characters.
  if (text.includes('\\u') && hasUnstorableText(body)) {
    throw new AppError(400, 'INVALID_JSON', 'Request body contains text that cannot be stored: NUL characters or unpaired UTF-16 surrogates');
  }
  return body;
}

/** A form body as an object of its fields; a field given twice keeps its first value (OAuth forbids repeats anyway). */
function formFields(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) if (!Object.hasOwn(fields, name) && name !== '__proto__') fields[name] = value;
  return fields;
}

/**
 * Reads the body once, up to `limitBytes` (413 beyond), keeps the raw bytes on `ctx.request.rawBody`
 * (webhook signatures are computed over them) and parses JSON into `ctx.request.body` with `parseJsonText`;
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
      ctx.request.body = parseJsonText(raw.toString('utf8'), ctx.path);
    }
    await next();
  };
}
