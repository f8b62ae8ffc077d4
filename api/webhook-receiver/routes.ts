import { z } from 'zod';
import type { AppDeps } from '../deps';
import { defineArea } from '../endpoint';
import { CodedError, jsonContent, webhookSignature } from '../openapi/registry';
import { receiveHandler } from './receive';

export const WEBHOOK_RECEIVER_PREFIX = '/webhook-receiver';

/**
 * The public inbound webhook receiver; the webhook id (≥ 128 random bits) is the capability, the signature the
 * proof. The handler reads the raw body itself (the signature covers its bytes), so nothing is validated before it.
 */
const webhooks = defineArea({ prefix: WEBHOOK_RECEIVER_PREFIX });

webhooks.endpoint({
  method: 'post',
  path: '/:webhookId',
  summary: 'Receive an inbound webhook: answers 202 at once and runs the workflow in the background',
  description:
    'The webhook id is the `webhookId` of a `trigger.webhook` node of an active workflow. When the trigger has a secret, `X-Service-Signature` must be the hex HMAC-SHA256 of the raw body. A trigger naming a provider also emits `provider.webhook.<name>`.',
  security: [{ [webhookSignature.name]: [] }, {}],
  request: {
    params: z.object({ webhookId: z.string().describe('whk_…') }),
    body: {
      schema: z.unknown(),
      description: "Any JSON document; it becomes the run's trigger payload",
      example: { ref: 'r-42', event: 'kyc.completed', playerId: 'p-42', status: 'approved' },
    },
  },
  responses: {
    202: jsonContent(
      z.object({ success: z.literal(true), data: z.object({ accepted: z.literal(true), runId: z.string().describe('run_…') }) }),
      'Accepted; the run starts in the background',
      { success: true, data: { accepted: true, runId: 'run_8a2c6e0f4b9d3e7a1c5f9b3d7e1a5c0f' } },
    ),
    400: jsonContent(CodedError, 'INVALID_JSON: the body is not JSON'),
    401: jsonContent(CodedError, 'INVALID_SIGNATURE: missing or wrong X-Service-Signature'),
    404: jsonContent(CodedError, 'WEBHOOK_NOT_FOUND: unknown webhook, or its workflow is inactive or deleted'),
    413: jsonContent(CodedError, 'PAYLOAD_TOO_LARGE: over WEBHOOK_BODY_LIMIT_BYTES'),
  },
  handler: receiveHandler,
});

export const createWebhookReceiverRouter = (deps: AppDeps) => webhooks.router(deps);
