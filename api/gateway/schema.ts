import { z } from 'zod';
import { jsonObject } from '../jsonObject';
import '../openapi/registry';

export const GatewayBody = z.object({
  connectionId: z.string().min(1).max(200),
  operation: z
    .string()
    .max(200)
    .regex(/^\s*[^.\s]+\.[^.\s]+\s*$/, 'must be entity.action, e.g. player.verify'),
  params: jsonObject.nullable().optional().describe('Canonical params; null or absent: none'),
});

export const ProviderFailure = z.object({
  success: z.literal(false),
  error: z.object({ code: z.string(), message: z.string() }),
  data: z.unknown().describe("The provider's body as received"),
  latencyMs: z.number(),
});

export const GatewayCallParams = z.object({ callId: z.string().regex(/^gwc_[0-9a-f]{32}$/, 'must be a gateway call id (gwc_…)') });

export const GatewayCallRecord = z.object({
  callId: z.string(),
  state: z
    .enum(['sending', 'answered', 'not_sent', 'outcome_unknown'])
    .describe(
      'sending: on its way to the provider; answered: the outcome below; not_sent: nothing reached the provider (error says why), a retry with its Idempotency-Key is sent afresh; outcome_unknown: it was sent and no answer came back, a retry is not sent',
    ),
  connectionId: z.string(),
  operation: z.string(),
  method: z.enum(['POST', 'PATCH']),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  outcome: z
    .object({ ok: z.boolean(), status: z.number().nullable(), data: z.unknown(), message: z.string().nullable(), latencyMs: z.number() })
    .nullable()
    .describe('The provider status, translated answer (as POST /gateway returns it) and latency; null unless answered'),
  error: z
    .object({ code: z.string(), message: z.string() })
    .nullable()
    .describe(
      'Why a not_sent call was not sent (CIRCUIT_OPEN, DESTINATION_NOT_ALLOWED, RATE_LIMITED, PROVIDER_UNREACHABLE, …) or GATEWAY_OUTCOME_UNKNOWN; null otherwise',
    ),
});
