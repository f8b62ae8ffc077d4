import { z } from 'zod';
import { registry } from '../openapi/registry';

const name = z.string().trim().min(1).max(200);

export const SchemaMapInput = z
  .record(z.string().min(1).max(200), z.string().min(1).max(200))
  .refine((map) => Object.keys(map).length <= 1000, 'at most 1000 fields')
  .describe('canonical field name → provider field name; renames keys at any depth, both ways');

export const CreateConnectorBody = z
  .object({
    name,
    provider: name,
    openapi: z
      .union([z.string().min(1), z.record(z.string(), z.unknown())])
      .nullable()
      .optional()
      .describe('OpenAPI 3.x or Swagger 2.0, as an object or as JSON/YAML text; omitted: the gateway answers BLUEPRINT_NO_SPEC'),
    schemaMap: SchemaMapInput.optional(),
  })
  .strict();

const baseUrl = z
  .url({ protocol: /^https?$/ })
  .max(2000)
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    return !url.username && !url.password && !url.search && !url.hash;
  }, 'must be an http(s) URL without credentials, query or fragment')
  .describe("Replaces the OpenAPI document's server URL");

export const Credentials = z
  .object({
    apiKey: z.string().min(1).max(8192).optional(),
    token: z.string().min(1).max(8192).optional(),
    username: z.string().min(1).max(1024).optional(),
    password: z.string().max(8192).optional(),
    secret: z.string().min(1).max(8192).optional(),
  })
  .strict()
  .describe('Stored AES-256-GCM encrypted; never returned');

export const CreateConnectionBody = z
  .object({ connectorId: z.string().min(1).max(200), name, credentials: Credentials, baseUrl: baseUrl.nullable().optional(), active: z.boolean().optional() })
  .strict();

export const UpdateConnectionBody = z
  .object({ name: name.optional(), credentials: Credentials.optional(), baseUrl: baseUrl.nullable().optional(), active: z.boolean().optional() })
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'at least one of name, credentials, baseUrl, active is required');

export const IdParams = z.object({ id: z.string().min(1).max(200) });

const Operation = z.object({ method: z.string(), path: z.string(), operationId: z.string().nullable(), summary: z.string().nullable() });
export const ConnectorSummary = z.object({
  id: z.string().describe('cnr_…'),
  name: z.string(),
  provider: z.string(),
  hasSpec: z.boolean(),
  specification: z.enum(['OpenAPI', 'Swagger']).nullable(),
  serverUrl: z.string().nullable(),
  operationCount: z.number().int(),
  schemaMap: z.record(z.string(), z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const Connector = registry.register(
  'Connector',
  ConnectorSummary.extend({
    operations: z.array(Operation),
    securitySchemes: z.record(
      z.string(),
      z.object({ kind: z.enum(['apiKey', 'bearer', 'basic', 'hmac']), name: z.string().optional(), in: z.string().optional() }),
    ),
    openapi: z.record(z.string(), z.unknown()).nullable(),
  }),
);
export const Connection = registry.register(
  'Connection',
  z.object({
    id: z.string().describe('conn_…'),
    connectorId: z.string().nullable().describe('null once its connector was deleted'),
    name: z.string(),
    baseUrl: z.string().nullable(),
    active: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
);
