import { findJsonBoundsProblem, type JsonBoundsProblem } from './jsonBounds';

// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * PostgreSQL text and jsonb refuse NUL and unpaired surrogates; JSON.parse lets both through (`\u0000`, `\ud800`).
 * It recurses: call it on a value whose depth is bounded (`readJson` checks the text first).
 */
function hasUnstorableText(value: unknown): boolean {
  if (typeof value === 'string') return UNSTORABLE.test(value);
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(hasUnstorableText);
  return Object.entries(value).some(([key, entry]) => UNSTORABLE.test(key) || hasUnstorableText(entry));
}

/** What a JSON text is to the API: its value, a bound it breaks (nesting, numbers), or why it is not JSON it can store. */
export type JsonReading = { ok: true; value: unknown } | { ok: false; problem: JsonBoundsProblem } | { ok: false; invalid: 'malformed' | 'unstorable' };

/**
 * Reads a JSON text as the API takes it, in this order: the nesting and number bounds of `core/jsonBounds.ts` on the
 * text (so nothing parses a body nested too deeply and no number turns silently into `null` or 0), then JSON.parse,
 * then text PostgreSQL cannot store (NUL, lone surrogates: JSON carries them only as `\u` escapes, decoded UTF-8
 * holds neither). The one definition for the API's thread and for the body workers (`core/jsonReadPool.ts`).
 *
 * @example readJson('{"amount":1e309}', 64) // { ok: false, problem: { path: ['amount'], message: 'is beyond ±…' } }
 */
export function readJson(text: string, maxDepth: number): JsonReading {
  const problem = findJsonBoundsProblem(text, maxDepth);
  if (problem) return { ok: false, problem };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, invalid: 'malformed' };
  }
  if (text.includes('\\u') && hasUnstorableText(value)) return { ok: false, invalid: 'unstorable' };
  return { ok: true, value };
}
