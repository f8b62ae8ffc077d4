import type { JsonBoundsProblem } from './jsonBounds';
import { rememberJson } from './knownJson';
import { stableStringify } from './stableJson';

/** A top-level field's JSON text: `stableStringify`'s, as JSONB's binary parameter (core/knownJson.ts). */
export interface KnownField {
  key: string;
  jsonb: Uint8Array;
  length: number;
}

export interface JsonReadRequest {
  id: number;
  bytes: Uint8Array;
  maxDepth: number;
}

export type JsonReadResponse =
  | { id: number; ok: true; text: string; fields: KnownField[] }
  | { id: number; ok: false; problem: JsonBoundsProblem }
  | { id: number; ok: false; invalid: 'malformed' | 'unstorable' };

/**
 * A field's text is written from this many UTF-16 code units on: below it, serialising it again on the API's thread
 * costs less than carrying it across.
 */
export const KNOWN_FIELD_MIN_LENGTH = 16 * 1024;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * On a body worker: the JSON texts of the large objects and arrays at the top level of an object body — an event's or
 * entity's `data`, a state's `value` — each in its own buffer, so it crosses to the API's thread without a copy.
 */
export function knownFieldsOf(value: unknown): KnownField[] {
  if (!isObject(value) || Array.isArray(value)) return [];
  const fields: KnownField[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (!isObject(item)) continue;
    const text = stableStringify(item);
    if (text.length < KNOWN_FIELD_MIN_LENGTH) continue;
    const jsonb = Buffer.allocUnsafeSlow(1 + Buffer.byteLength(text, 'utf8'));
    jsonb[0] = 1;
    jsonb.write(text, 1, 'utf8');
    fields.push({ key, jsonb, length: text.length });
  }
  return fields;
}

/** On the API's thread: remembers each field's text for the value the body parsed to (core/knownJson.ts). */
export function rememberFields(value: unknown, fields: KnownField[]): void {
  if (!isObject(value)) return;
  for (const { key, jsonb, length } of fields) {
    const item = Object.hasOwn(value, key) ? value[key] : undefined;
    if (isObject(item)) rememberJson(item, { jsonb: Buffer.from(jsonb.buffer, jsonb.byteOffset, jsonb.byteLength), length });
  }
}
