import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

/**
 * The one registry every area adds its routes to, next to the zod schemas that validate them, so the
 * published document cannot drift from the code. Paths are written without `/functions/v1`; that
 * prefix is the document's server URL.
 */
export const registry = new OpenAPIRegistry();

export const bearerApiKey = registry.registerComponent('securitySchemes', 'apiKey', {
  type: 'http',
  scheme: 'bearer',
  description: 'An operator API key: `svc_live_` followed by 64 hex characters.',
});

export const bearerSession = registry.registerComponent('securitySchemes', 'session', {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'JWT',
  description: 'A member session access token from `POST /auth/v1/token`.',
});

/** `{ success: false, error: { code, message, details? } }` */
export const CodedError = registry.register(
  'CodedError',
  z.object({
    success: z.literal(false),
    error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
  }),
);

/** `{ success: false, error: "<text>" }` (key management) */
export const TextError = registry.register('TextError', z.object({ success: z.literal(false), error: z.string() }));

export function jsonContent(schema: z.ZodType, description: string) {
  return { description, content: { 'application/json': { schema } } };
}

export function buildOpenApiDocument(serverUrl = '/functions/v1') {
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Operator Platform API',
      version: '0.1.0',
      description: 'Multi-tenant platform for online-gaming operators.',
    },
    servers: [{ url: serverUrl }, { url: '/' }],
  });
}
