import { z } from 'zod';
import { bearerApiKey, bearerSession, CodedError, jsonContent, registry } from '../openapi/registry';
import * as examples from './examples';

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
const ConnectorSummary = z.object({
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
const Connector = registry.register(
  'Connector',
  ConnectorSummary.extend({
    operations: z.array(Operation),
    securitySchemes: z.record(z.string(), z.object({ kind: z.enum(['apiKey', 'bearer', 'basic', 'hmac']), name: z.string().optional(), in: z.string().optional() })),
    openapi: z.record(z.string(), z.unknown()).nullable(),
  }),
);
const Connection = registry.register(
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

const security = [{ [bearerApiKey.name]: [] }, { [bearerSession.name]: [] }];
const ok = (schema: z.ZodType, description: string, example: unknown) => jsonContent(z.object({ success: z.literal(true), data: schema }), description, example);
const authErrors = {
  401: jsonContent(CodedError, 'UNAUTHORIZED: missing, invalid or revoked credentials'),
  403: jsonContent(CodedError, 'FORBIDDEN: writes need an API key or the Owner or an Admin'),
};
const badInput = jsonContent(CodedError, 'MISSING_FIELDS or VALIDATION_FAILED');

const routes: Array<Parameters<typeof registry.registerPath>[0]> = [
  {
    method: 'post', path: '/connections-api/connectors', summary: 'Create a connector from an OpenAPI document',
    request: { body: jsonContent(CreateConnectorBody, 'Name, provider, OpenAPI document and schemaMap', examples.createConnectorBody) },
    responses: { 201: ok(Connector, 'Created', examples.connector), 400: jsonContent(CodedError, 'INVALID_OPENAPI (names the problems), MISSING_FIELDS or VALIDATION_FAILED'), ...authErrors },
  },
  { method: 'get', path: '/connections-api/connectors', summary: "List the operator's connectors", responses: { 200: ok(z.array(ConnectorSummary), 'Newest first', examples.connectorList), ...authErrors } },
  {
    method: 'get', path: '/connections-api/connectors/{id}', summary: 'Get a connector with its document', request: { params: IdParams },
    responses: { 200: ok(Connector, 'The connector', examples.connector), 400: badInput, ...authErrors, 404: jsonContent(CodedError, 'CONNECTOR_NOT_FOUND') },
  },
  {
    method: 'delete', path: '/connections-api/connectors/{id}', summary: 'Delete a connector (its connections then answer CONNECTOR_NOT_FOUND)', request: { params: IdParams },
    responses: { 200: ok(z.object({ id: z.string(), deleted: z.literal(true) }), 'Deleted', examples.connectorDeleted), 400: badInput, ...authErrors, 404: jsonContent(CodedError, 'CONNECTOR_NOT_FOUND') },
  },
  {
    method: 'post', path: '/connections-api/connections', summary: 'Create a connection (credentials are stored encrypted)',
    request: { body: jsonContent(CreateConnectionBody, 'Connector, name, credentials, base URL, active', examples.createConnectionBody) },
    responses: { 201: ok(Connection, 'Created', examples.connection), 400: badInput, ...authErrors, 404: jsonContent(CodedError, 'CONNECTOR_NOT_FOUND') },
  },
  { method: 'get', path: '/connections-api/connections', summary: "List the operator's connections", responses: { 200: ok(z.array(Connection), 'Newest first', examples.connectionList), ...authErrors } },
  {
    method: 'get', path: '/connections-api/connections/{id}', summary: 'Get a connection (never its credentials)', request: { params: IdParams },
    responses: { 200: ok(Connection, 'The connection', examples.connection), 400: badInput, ...authErrors, 404: jsonContent(CodedError, 'CONNECTION_NOT_FOUND') },
  },
  {
    method: 'patch', path: '/connections-api/connections/{id}', summary: 'Rename, re-key, re-point or (de)activate a connection',
    request: { params: IdParams, body: jsonContent(UpdateConnectionBody, 'Fields to change; credentials are replaced as a whole', examples.updateConnectionBody) },
    responses: { 200: ok(Connection, 'Updated', examples.connectionUpdated), 400: badInput, ...authErrors, 404: jsonContent(CodedError, 'CONNECTION_NOT_FOUND') },
  },
];
for (const route of routes) registry.registerPath({ ...route, security });
