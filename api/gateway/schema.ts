import { z } from 'zod';
import { bearerApiKey, CodedError, jsonContent, registry } from '../openapi/registry';
import * as examples from './examples';

export const GatewayBody = z.object({
  connectionId: z.string().min(1).max(200),
  operation: z
    .string()
    .max(200)
    .regex(/^\s*[^.\s]+\.[^.\s]+\s*$/, 'must be entity.action, e.g. player.verify'),
  params: z.record(z.string(), z.unknown()).nullable().optional().describe('Canonical params; null or absent: none'),
});

const ProviderFailure = z.object({
  success: z.literal(false),
  error: z.object({ code: z.string(), message: z.string() }),
  data: z.unknown().describe("The provider's body as received"),
  latencyMs: z.number(),
});

registry.registerPath({
  method: 'post',
  path: '/gateway',
  summary: 'Call a supplier API through a connection, in the canonical entity.action format',
  description:
    'The action keyword picks the HTTP method (verify/get/list… GET, create/submit… POST, update… PATCH, replace/set PUT, delete/cancel… DELETE, else POST); ' +
    "the best-matching endpoint of the connector's OpenAPI document is called with the connection's credentials. " +
    'Other methods on /gateway answer 405 METHOD_NOT_ALLOWED. Rate class gateway:execute.',
  security: [{ [bearerApiKey.name]: [] }],
  request: { body: jsonContent(GatewayBody, 'Connection, operation and canonical params', examples.gatewayBody) },
  responses: {
    200: jsonContent(z.object({ success: z.literal(true), data: z.unknown(), latencyMs: z.number() }), 'Provider 2xx; data translated to canonical names', examples.gatewayResult),
    400: jsonContent(CodedError, 'MISSING_FIELDS, VALIDATION_FAILED, CONNECTION_INACTIVE, BLUEPRINT_NO_SPEC or DESTINATION_NOT_ALLOWED'),
    401: jsonContent(CodedError, 'AUTH_MISSING, AUTH_INVALID or AUTH_REVOKED'),
    404: jsonContent(CodedError, 'CONNECTION_NOT_FOUND, CONNECTOR_NOT_FOUND or OPERATION_NOT_FOUND'),
    429: jsonContent(CodedError, 'RATE_LIMITED (gateway:execute), with Retry-After'),
    500: jsonContent(CodedError, 'INTERNAL_ERROR'),
    502: jsonContent(ProviderFailure, 'PROVIDER_ERROR: the provider answered non-2xx, or not at all'),
    503: jsonContent(
      z.object({ success: z.literal(false), error: z.object({ code: z.literal('CIRCUIT_OPEN'), message: z.string() }), latencyMs: z.number() }),
      'CIRCUIT_OPEN, with Retry-After: 30',
    ),
  },
});
