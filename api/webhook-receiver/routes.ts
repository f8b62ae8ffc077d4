import { z } from 'zod';
import type { AppDeps } from '../deps';
import { CodedError, jsonContent, standardWebhooks, webhookSignature } from '../openapi/registry';
import { receiveHandler } from './receive';
import { webhooks } from './area';

export { WEBHOOK_RECEIVER_PREFIX } from './area';

webhooks.endpoint({
  method: 'post',
  path: '/:webhookId',
  summary: 'Receive an inbound webhook: answers 202 at once and runs the workflow in the background',
  description:
    "The webhook id is the `webhookId` of a `trigger.webhook` node of an active workflow. When the trigger has a secret, the request is signed either with the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`; the timestamp within 5 minutes) or, as the spec says, with `X-Service-Signature`, the hex HMAC-SHA256 of the raw body. A `webhook-id` seen before for this webhook (within 24 hours) answers 202 with the first delivery's `runId` and starts no run; with a secret, a `webhook-id` counts only when signed. A trigger naming a provider also emits `provider.webhook.<name>`.",
  security: [{ [webhookSignature.name]: [] }, { [standardWebhooks.name]: [] }, {}],
  request: {
    params: z.object({ webhookId: z.string().describe('whk_…') }),
    headers: z.object({
      'webhook-id': z.string().optional().describe('Delivery id (1–256 visible ASCII characters); a repeat starts no second run'),
      'webhook-timestamp': z.string().optional().describe('Standard Webhooks send time, Unix seconds'),
    }),
    body: {
      schema: z.unknown(),
      description: "Any JSON document; it becomes the run's trigger payload",
      example: { ref: 'r-42', event: 'kyc.completed', playerId: 'p-42', status: 'approved' },
    },
  },
  responses: {
    202: jsonContent(
      z.object({ success: z.literal(true), data: z.object({ accepted: z.literal(true), runId: z.string().describe('run_…') }) }),
      "Accepted; the run starts in the background (a repeated delivery id: the first delivery's run)",
      { success: true, data: { accepted: true, runId: 'run_8a2c6e0f4b9d3e7a1c5f9b3d7e1a5c0f' } },
    ),
    400: jsonContent(
      CodedError,
      'INVALID_JSON: the body is not JSON; VALIDATION_FAILED: it nests too deeply or holds a number out of range (names the field); INVALID_HEADER: a malformed webhook-id',
    ),
    401: jsonContent(
      CodedError,
      'INVALID_SIGNATURE: missing or wrong X-Service-Signature, or Standard Webhooks headers missing, wrong or outside the 5-minute tolerance',
    ),
    404: jsonContent(CodedError, 'WEBHOOK_NOT_FOUND: unknown webhook, or its workflow is inactive or deleted'),
    413: jsonContent(CodedError, 'PAYLOAD_TOO_LARGE: over WEBHOOK_BODY_LIMIT_BYTES'),
    429: jsonContent(CodedError, "RATE_LIMITED: the workflow's organisation started RATE_LIMIT_RUNS runs this minute (runs:start), with Retry-After"),
  },
  ...receiveHandler,
});

export const createWebhookReceiverRouter = (deps: AppDeps) => webhooks.router(deps);
