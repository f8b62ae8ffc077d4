import { createHash } from 'node:crypto';
import { knownJson } from './knownJson';

/**
 * JSON with object keys sorted at every depth, so two bodies that differ only in key order or
 * whitespace hash the same (idempotency keys compare request bodies this way).
 */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableStringify(item)}`).join(',')}}`;
}

/**
 * The SHA-256 (hex) of `prefix` followed by `stableStringify(value)`, the same digest as hashing that string, but a
 * value or top-level field whose text a body worker already wrote (core/knownJson.ts) is hashed from those bytes
 * instead of being serialised again on the API's thread.
 */
export function stableSha256Hex(prefix: string, value: unknown): string {
  const hash = createHash('sha256');
  const bytesOf = (item: unknown) => knownJson(item)?.jsonb.subarray(1);
  const whole = bytesOf(value);
  if (whole) return hash.update(prefix, 'utf8').update(whole).digest('hex');
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return hash.update(prefix + stableStringify(value), 'utf8').digest('hex');
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  let pending = `${prefix}{`;
  entries.forEach(([key, item], index) => {
    pending += `${index > 0 ? ',' : ''}${JSON.stringify(key)}:`;
    const bytes = bytesOf(item);
    if (!bytes) {
      pending += stableStringify(item);
      return;
    }
    hash.update(pending, 'utf8').update(bytes);
    pending = '';
  });
  return hash.update(`${pending}}`, 'utf8').digest('hex');
}
