import { z } from 'zod';
import type { AppDeps } from '../deps';
import { CodedError, jsonContent } from '../openapi/registry';
import * as examples from './examples';
import { gatewayCallHandler } from './calls';
import { executeHandler } from './execute';
import { GatewayBody, GatewayCallRecord, ProviderFailure } from './schema';
import { gateway } from './area';

gateway.endpoint({
  method: 'post',
  path: '/',
  summary: 'Call a supplier API through a connection, in the canonical entity.action format',
  description:
    'The action keyword picks the HTTP method (verify/get/list… GET, create/submit… POST, update… PATCH, replace/set PUT, delete/cancel… DELETE, else POST); ' +
    "the best-matching endpoint of the connector's OpenAPI document is called with the connection's credentials. " +
    'Every answer names the call in the Gateway-Call-Id header, which the provider receives as Idempotency-Key. ' +
    'With an Idempotency-Key header a repeated POST or PATCH is not sent again: an answered one gets its recorded answer (Idempotent-Replayed: true); ' +
    'the key with another connection, operation or params is 422 IDEMPOTENCY_KEY_MISMATCH; a call that never reached the provider (circuit open, destination refused, rate limited) frees its key, so a retry is sent afresh. ' +
    'A POST or PATCH that was sent and whose outcome did not come back is 504 GATEWAY_OUTCOME_UNKNOWN, to a retry with its key too: read it at GET /gateway/calls/{callId} rather than retrying. ' +
    'Other methods on /gateway answer 405 METHOD_NOT_ALLOWED. Rate class gateway:execute.',
  guards: ['auth', 'limit'],
  request: { body: { schema: GatewayBody, description: 'Connection, operation and canonical params', example: examples.gatewayBody } },
  responses: {
    200: jsonContent(
      z.object({ success: z.literal(true), data: z.unknown(), latencyMs: z.number() }),
      'Provider 2xx; data translated to canonical names',
      examples.gatewayResult,
    ),
    400: jsonContent(CodedError, 'MISSING_FIELDS, VALIDATION_FAILED, CONNECTION_INACTIVE, BLUEPRINT_NO_SPEC or DESTINATION_NOT_ALLOWED'),
    401: jsonContent(CodedError, 'AUTH_MISSING, AUTH_INVALID or AUTH_REVOKED'),
    403: jsonContent(CodedError, "FORBIDDEN: a Member's dashboard credential only reads"),
    404: jsonContent(CodedError, 'CONNECTION_NOT_FOUND, CONNECTOR_NOT_FOUND or OPERATION_NOT_FOUND'),
    409: jsonContent(CodedError, 'GATEWAY_CALL_IN_PROGRESS: this Idempotency-Key is being sent'),
    422: jsonContent(CodedError, 'IDEMPOTENCY_KEY_MISMATCH: this Idempotency-Key was used with another connection, operation or params'),
    429: jsonContent(CodedError, 'RATE_LIMITED (gateway:execute), with Retry-After'),
    500: jsonContent(CodedError, 'INTERNAL_ERROR'),
    502: jsonContent(ProviderFailure, 'PROVIDER_ERROR: the provider answered non-2xx, or not at all'),
    503: jsonContent(
      z.object({
        success: z.literal(false),
        error: z.object({ code: z.enum(['CIRCUIT_OPEN', 'SERVICE_UNAVAILABLE']), message: z.string() }),
        latencyMs: z.number().optional(),
      }),
      'CIRCUIT_OPEN, with Retry-After: 30; or SERVICE_UNAVAILABLE, with Retry-After: the call was not sent (or is safe to repeat), retry it',
    ),
    504: jsonContent(
      CodedError,
      'GATEWAY_OUTCOME_UNKNOWN: a POST or PATCH was sent and no answer came back (a timeout or a reset after sending); details.callId names it, and a retry with its Idempotency-Key is answered the same',
    ),
  },
  ...executeHandler,
});

gateway.endpoint({
  method: 'get',
  path: '/calls/:callId',
  summary: 'The recorded outcome of a POST or PATCH sent through POST /gateway (kept 24 hours)',
  guards: ['auth', 'limit'],
  responses: {
    200: jsonContent(
      z.object({ success: z.literal(true), data: GatewayCallRecord }),
      'The call: sending, answered with its outcome, not_sent or outcome_unknown with its error',
      examples.gatewayCall,
    ),
    400: jsonContent(CodedError, 'VALIDATION_FAILED: not a gateway call id'),
    401: jsonContent(CodedError, 'AUTH_MISSING, AUTH_INVALID or AUTH_REVOKED'),
    404: jsonContent(CodedError, "GATEWAY_CALL_NOT_FOUND: unknown, another operator's, expired, a GET, PUT or DELETE, or refused before it was claimed"),
    429: jsonContent(CodedError, 'RATE_LIMITED (gateway:execute), with Retry-After'),
  },
  ...gatewayCallHandler,
});

export const createGatewayRouter = (deps: AppDeps) => gateway.router(deps);
