import { randomBytes } from 'node:crypto';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** True when the value can be compared with a uuid column without PostgreSQL raising a cast error. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}

/** Random bytes drawn from the system CSPRNG 4 KiB at a time (as `crypto.randomUUID` does): ids are made on every write. */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = POOL_BYTES;

function random16(): Buffer {
  if (offset + 16 > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  offset += 16;
  return pool.subarray(offset - 16, offset);
}

/**
 * A prefixed random identifier with 128 bits of entropy, as the spec's `ent_`, `eev_`, `job_` ids.
 *
 * @example prefixedId('job') // 'job_3f9c0e…' (32 hex characters after the prefix)
 */
export function prefixedId(prefix: string): string {
  return `${prefix}_${random16().toString('hex')}`;
}

/** A random opaque secret token with a readable prefix, e.g. refresh tokens (`rt_`) and invites (`inv_`). */
export function secretToken(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}
