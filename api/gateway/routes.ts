import { z } from 'zod';
import type { AppDeps } from '../deps';
import { defineArea } from '../endpoint';
import { AppError, type AuthFailure } from '../errors';
import { authenticate } from '../middleware/authenticate';
import { rateLimit } from '../middleware/rateLimit';
import { bearerApiKey, CodedError, jsonContent } from '../openapi/registry';
import * as examples from './examples';
import { executeHandler } from './execute';
import { GatewayBody, ProviderFailure } from './schema';

/** Spec 5 rule 3: the gateway speaks AUTH_MISSING / AUTH_INVALID / AUTH_REVOKED; a session token is not a key. */
function gatewayAuthError(reason: AuthFailure): AppError {
  if (reason === 'missing') return new AppError(401, 'AUTH_MISSING', 'Authorization header is required');
  if (reason === 'revoked') return new AppError(401, 'AUTH_REVOKED', 'API key has been revoked');
  return new AppError(401, 'AUTH_INVALID', 'Invalid API key');
}

/** `POST /gateway` (spec 4.3): API key only, rate class `gateway:execute`; other methods are 405 from the root router. */
const gateway = defineArea({
  prefix: '/gateway',
  security: [{ [bearerApiKey.name]: [] }],
  guards: (deps) => ({
    auth: authenticate(deps, { accept: ['apiKey'], onFailure: gatewayAuthError }),
    limit: rateLimit(deps.rateLimits, 'gateway:execute'),
  }),
});

gateway.endpoint({
  method: 'post',
  path: '/',
  summary: 'Call a supplier API through a connection, in the canonical entity.action format',
  description:
    'The action keyword picks the HTTP method (verify/get/list… GET, create/submit… POST, update… PATCH, replace/set PUT, delete/cancel… DELETE, else POST); ' +
    "the best-matching endpoint of the connector's OpenAPI document is called with the connection's credentials. " +
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
    404: jsonContent(CodedError, 'CONNECTION_NOT_FOUND, CONNECTOR_NOT_FOUND or OPERATION_NOT_FOUND'),
    429: jsonContent(CodedError, 'RATE_LIMITED (gateway:execute), with Retry-After'),
    500: jsonContent(CodedError, 'INTERNAL_ERROR'),
    502: jsonContent(ProviderFailure, 'PROVIDER_ERROR: the provider answered non-2xx, or not at all'),
    503: jsonContent(
      z.object({ success: z.literal(false), error: z.object({ code: z.literal('CIRCUIT_OPEN'), message: z.string() }), latencyMs: z.number() }),
      'CIRCUIT_OPEN, with Retry-After: 30',
    ),
  },
  handler: executeHandler,
});

export const createGatewayRouter = (deps: AppDeps) => gateway.router(deps);
