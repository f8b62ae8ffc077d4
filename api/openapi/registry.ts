import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { errorFormatFor, FUNCTIONS_PREFIX, type ErrorFormat } from '../areas';

extendZodWithOpenApi(z);

/**
 * The one registry of the published document. Operations reach it only through `defineArea(…).endpoint`
 * (api/endpoint.ts), from the declaration that also mounts the route and validates its input, so the
 * document cannot drift from the code; areas register their named response schemas here directly. Paths
 * are written without `/functions/v1`; that prefix is the document's first server URL.
 */
export const registry = new OpenAPIRegistry();

export const bearerApiKey = registry.registerComponent('securitySchemes', 'apiKey', {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'svc_live_<64 hex>',
  description: 'An operator API key (`Authorization: Bearer svc_live_` followed by 64 hex characters), from `POST /api-keys`.',
});

export const bearerSession = registry.registerComponent('securitySchemes', 'session', {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'JWT',
  description: 'A member session access token (`Authorization: Bearer <JWT>`) from `POST /auth/v1/signup` or `POST /auth/v1/token`.',
});

export const bearerDashboardCredential = registry.registerComponent('securitySchemes', 'dashboardCredential', {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'dsh_<JWT>',
  description:
    "The signed-in dashboard's credential for the data API and the gateway (`Authorization: Bearer dsh_…`), from `POST /auth/v1/dashboard-credential`: minutes long, ended with its session, a Member's reads only.",
});

/** For inbound webhooks: the sender signs the raw request body with the trigger's verification secret. */
export const webhookSignature = registry.registerComponent('securitySchemes', 'webhookSignature', {
  type: 'apiKey',
  in: 'header',
  name: 'X-Service-Signature',
  description:
    "HMAC-SHA256 of the raw request body, keyed with the webhook trigger's verification secret. Required only when the trigger has a secret; otherwise the request is 401.",
});

export const standardWebhooks = registry.registerComponent('securitySchemes', 'standardWebhooks', {
  type: 'apiKey',
  in: 'header',
  name: 'webhook-signature',
  description:
    'Standard Webhooks (standardwebhooks.com): `webhook-signature` `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, with `webhook-id` and `webhook-timestamp` (Unix seconds, within 5 minutes). The key is the trigger secret: the decoded bytes of a `whsec_<base64>` secret, else its UTF-8 bytes. A repeated `webhook-id` starts no second run.',
});

/** `{ success: false, error: { code, message, details? } }` (data API, gateway, analytics, workflows, connections, signup) */
export const CodedError = registry.register(
  'CodedError',
  z
    .object({
      success: z.literal(false),
      error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
    })
    .openapi({
      example: {
        success: false,
        error: { code: 'VALIDATION_FAILED', message: 'Invalid input: data: expected object', details: [{ field: 'data', message: 'expected object' }] },
      },
    }),
);

/** `{ success: false, error: "<text>" }` (key management) */
export const TextError = registry.register(
  'TextError',
  z.object({ success: z.literal(false), error: z.string() }).openapi({ example: { success: false, error: 'Key not found' } }),
);

/** `{ success: false, code, error: "<text>" }` (team management) */
export const TeamError = registry.register(
  'TeamError',
  z
    .object({ success: z.literal(false), code: z.string(), error: z.string() })
    .openapi({ example: { success: false, code: 'NOT_FOUND', error: 'Member not found' } }),
);

/** `{ error, error_description }` (the token endpoint, OAuth style) */
export const OAuthError = registry.register(
  'OAuthError',
  z
    .object({ error: z.string(), error_description: z.string() })
    .openapi({ example: { error: 'invalid_grant', error_description: 'Invalid login credentials' } }),
);

const ERROR_SCHEMAS: Partial<Record<ErrorFormat, string>> = { text: 'TextError', coded: 'CodedError', team: 'TeamError', oauth: 'OAuthError' };

/**
 * A JSON request body or response. `example` goes on the media type, where Swagger UI shows it and
 * Schemathesis' examples phase sends it; `test/integration/openapi-examples.test.ts` checks that it
 * validates against `schema`, so an example cannot drift from the contract.
 *
 * @example jsonContent(EventBody, 'The event', { eventType: 'transaction', data: { type: 'deposit', amount: 5000, currency: 'EUR' } })
 */
export function jsonContent(schema: z.ZodType, description: string, example?: unknown) {
  return { description, content: { 'application/json': example === undefined ? { schema } : { schema, example } } };
}

type Operation = { requestBody?: unknown; responses?: Record<string, unknown> };

/**
 * Answers the body middleware gives every route that reads a JSON body, before any handler runs
 * (malformed or unstorable JSON, too large, not JSON), in the area's error shape. Added here so no
 * area has to repeat them, and so routes registered later get them too.
 */
function addBodyErrors(paths: Record<string, Record<string, Operation>>): void {
  for (const [path, item] of Object.entries(paths)) {
    const schema = ERROR_SCHEMAS[errorFormatFor(path)];
    if (!schema) continue;
    const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } });
    for (const operation of Object.values(item)) {
      if (!operation.requestBody) continue;
      operation.responses ??= {};
      operation.responses['400'] ??= error('INVALID_JSON: the body is not JSON, or holds NUL characters or unpaired surrogates');
      operation.responses['413'] ??= error('PAYLOAD_TOO_LARGE: the body exceeds BODY_LIMIT_BYTES');
      operation.responses['415'] ??= error('UNSUPPORTED_MEDIA_TYPE: a body that is not application/json');
    }
  }
}

/**
 * The published OpenAPI 3.1 document. `serverUrl` is where the functions live (`/functions/v1`; every
 * path is also served without the prefix, the second server).
 *
 * @example buildOpenApiDocument().paths['/gateway'].post.responses['502']
 */
export function buildOpenApiDocument(serverUrl = FUNCTIONS_PREFIX) {
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Operator Platform API',
      version: '0.1.0',
      description:
        'Multi-tenant platform for online-gaming operators. Authenticate with an operator API key or a member session JWT ' +
        '(see each operation). Errors use the shape of their area: key management `TextError`, team management `TeamError`, ' +
        'the token endpoint `OAuthError`, MCP JSON-RPC errors, everything else `CodedError`. 429 answers carry `Retry-After`.',
    },
    servers: [
      { url: serverUrl, description: 'The functions prefix' },
      { url: '/', description: 'The same functions without the prefix' },
    ],
  });
  addBodyErrors((document.paths ?? {}) as Record<string, Record<string, Operation>>);
  return document;
}
