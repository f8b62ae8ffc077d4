/**
 * JSON texts a body worker already wrote for values of a large request body (`core/jsonReadPool.ts`), so the API's
 * thread does not serialise a 10 MB value again to measure it, hash it or hand it to PostgreSQL. Each is the value's
 * `stableStringify` text (keys sorted): as JSONB it is the same value as `JSON.stringify`'s (JSONB keeps no key order),
 * and it is exactly what the Idempotency-Key's request hash reads. Keyed by the value itself and held only as long as
 * the value lives; a request body's values are never changed in place (copies are made where data changes: sealed PII,
 * merged entities), which is what keeps a remembered text true.
 */
export interface KnownJson {
  /** The byte 1 (JSONB's binary format version) followed by the text's UTF-8: a `jsonb` parameter as it is sent. */
  jsonb: Buffer;
  /** The text's length in UTF-16 code units, as `JSON.stringify(value).length` would be. */
  length: number;
}

const known = new WeakMap<object, KnownJson>();

export function rememberJson(value: object, json: KnownJson): void {
  known.set(value, json);
}

export function knownJson(value: unknown): KnownJson | undefined {
  return typeof value === 'object' && value !== null ? known.get(value) : undefined;
}

/** The value's JSON text length in UTF-16 code units. */
export function jsonLength(value: unknown): number {
  return knownJson(value)?.length ?? (JSON.stringify(value) ?? '').length;
}

/** The value as JSON text (for arrays of JSONB, which pg sends as text). */
export function jsonText(value: unknown): string {
  const json = knownJson(value);
  return json ? json.jsonb.toString('utf8', 1) : JSON.stringify(value);
}

/**
 * The value as one `jsonb` parameter: a known text as its JSONB binary bytes (pg sends a Buffer as they are, with
 * no string to measure and encode), else `JSON.stringify`'s text.
 */
export function jsonbParam(value: unknown): Buffer | string {
  return knownJson(value)?.jsonb ?? JSON.stringify(value);
}
