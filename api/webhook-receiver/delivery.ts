import type { Context } from 'koa';
import { AppError } from '../errors';
import { standardSignatureProblem, validSignature } from './signature';

const DELIVERY_ID = /^[\x21-\x7e]{1,256}$/;
const STANDARD_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

const unauthorised = (message: string) => new AppError(401, 'INVALID_SIGNATURE', message);

/**
 * Authenticates a delivery and returns its delivery id (`webhook-id`), if it has one. Without a secret nothing is
 * checked (spec 4.7) and a `webhook-id`, when sent, still names the delivery. With a secret, a request carrying any
 * Standard Webhooks header is verified as one (all three headers, the signature over id, timestamp and body, the
 * timestamp within 5 minutes): an id or time the sender did not sign would let a replay pass as a new delivery.
 * Otherwise `X-Service-Signature`, the spec's body-only HMAC, is required; it signs neither a time nor an id, so
 * nothing tells such a request from its replay and each one starts a run.
 */
export function authenticateDelivery(ctx: Context, bytes: Buffer | undefined, secret: string | null): string | undefined {
  const value = (name: string) => ctx.get(name) || undefined;
  const raw = bytes ?? Buffer.alloc(0);
  const id = value('webhook-id');
  if (secret !== null) {
    const present = STANDARD_HEADERS.filter((name) => value(name) !== undefined);
    if (present.length === 0) {
      if (!validSignature(raw, secret, value('x-service-signature'))) throw unauthorised('X-Service-Signature must be the hex HMAC-SHA256 of the raw body');
      return undefined;
    }
    const missing = STANDARD_HEADERS.filter((name) => value(name) === undefined);
    if (missing.length > 0) {
      throw unauthorised(
        `${missing.join(' and ')} missing: webhook-id, webhook-timestamp and webhook-signature go together, so that the id and time are signed`,
      );
    }
    const problem = standardSignatureProblem(raw, secret, { id: id!, timestamp: value('webhook-timestamp')!, signature: value('webhook-signature')! });
    if (problem) throw unauthorised(problem);
  }
  if (id !== undefined && !DELIVERY_ID.test(id)) throw new AppError(400, 'INVALID_HEADER', 'webhook-id must be 1 to 256 visible ASCII characters');
  return id;
}
