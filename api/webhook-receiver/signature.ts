import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * True when `header` is the hex HMAC-SHA256 of the raw body under `secret` (a `sha256=` prefix is
 * accepted), compared in constant time.
 *
 * @example validSignature(rawBody, 'whsec-…', req.headers['x-service-signature'])
 */
export function validSignature(rawBody: Buffer, secret: string, header: string | undefined): boolean {
  if (!header) return false;
  const given = header
    .trim()
    .replace(/^sha256=/i, '')
    .toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(given)) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(given, 'hex'), expected);
}
