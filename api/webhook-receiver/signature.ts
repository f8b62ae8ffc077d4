import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

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

const WHSEC = /^whsec_([A-Za-z0-9+/]+={0,2})$/;

/**
 * The HMAC key of the Standard Webhooks scheme for a trigger secret. A secret in that scheme's own form
 * (`whsec_` + base64, as its senders generate them) means the decoded bytes, as every Standard Webhooks library
 * reads it; any other secret is its own UTF-8 bytes, which such a sender is given as `whsec_` + base64(secret).
 * (`X-Service-Signature` always keys on the secret's text as it is.)
 *
 * @example standardWebhookKey('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw') // the 24 decoded bytes
 */
export function standardWebhookKey(secret: string): Uint8Array {
  const encoded = WHSEC.exec(secret)?.[1];
  if (encoded) {
    const key = Buffer.from(encoded, 'base64');
    if (key.length > 0 && key.toString('base64') === encoded) return key;
  }
  return Buffer.from(secret, 'utf8');
}

/** The Standard Webhooks headers, as received. */
export interface StandardHeaders {
  id: string;
  timestamp: string;
  signature: string;
}

/** Why a Standard Webhooks delivery was refused, naming the header at fault; `null` when it verified. */
export function standardSignatureProblem(rawBody: Buffer, secret: string, headers: StandardHeaders): string | null {
  if (!/^\d{1,12}$/.test(headers.timestamp)) return 'webhook-timestamp must be the send time in Unix seconds';
  try {
    new Webhook(standardWebhookKey(secret), { format: 'raw' }).verify(
      rawBody,
      { 'webhook-id': headers.id, 'webhook-timestamp': headers.timestamp, 'webhook-signature': headers.signature },
      { jsonParse: false },
    );
    return null;
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    if (/timestamp/i.test(error.message)) return 'webhook-timestamp is more than 5 minutes away from the server clock';
    return 'webhook-signature has no v1 signature of webhook-id, webhook-timestamp and the raw body under the secret';
  }
}
