import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const API_KEY_PREFIX = 'svc_live_';
const API_KEY_PATTERN = /^svc_live_[0-9a-f]{64}$/;

/** A new plaintext API key: the live prefix and 64 hex characters (256 random bits). */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('hex');
}

/** SHA-256 hex digest: the only form in which keys (and other bearer secrets) are stored. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function isWellFormedApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

/** Constant-time equality of two strings; differing lengths compare unequal without leaking where. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}
