import { defineArea } from '../endpoint';

export const WEBHOOK_RECEIVER_PREFIX = '/webhook-receiver';

/**
 * The public inbound webhook receiver; the webhook id (≥ 128 random bits) is the capability, the signature the
 * proof. The handler declares the raw body (the signature covers its bytes), so nothing is validated before it.
 */
export const webhooks = defineArea({ prefix: WEBHOOK_RECEIVER_PREFIX });
