import { z } from 'zod';
import '../openapi/registry';

export const GatewayBody = z.object({
  connectionId: z.string().min(1).max(200),
  operation: z
    .string()
    .max(200)
    .regex(/^\s*[^.\s]+\.[^.\s]+\s*$/, 'must be entity.action, e.g. player.verify'),
  params: z.record(z.string(), z.unknown()).nullable().optional().describe('Canonical params; null or absent: none'),
});

export const ProviderFailure = z.object({
  success: z.literal(false),
  error: z.object({ code: z.string(), message: z.string() }),
  data: z.unknown().describe("The provider's body as received"),
  latencyMs: z.number(),
});
