import { z } from 'zod';
import { bearerApiKey, bearerSession, jsonContent, registry, TextError } from '../openapi/registry';
import * as examples from './examples';

export const CreateKeyBody = z.object({
  operatorId: z.string().min(1),
  label: z.string().max(200).optional(),
});

export const RenameKeyBody = z.object({ id: z.string().min(1), label: z.string().min(1).max(200) });

export const DeleteKeyQuery = z.object({ id: z.string().min(1), hard: z.enum(['true', 'false']).optional() });

export const McpSettingsBody = z
  .object({
    mcp_enabled: z.boolean().optional(),
    mcp_workflow_allowlist: z.array(z.string().min(1).max(100)).max(1000).nullable().optional(),
  })
  .strict();

export const KeyIdParams = z.object({ id: z.string() });

const ApiKeyRecord = registry.register(
  'ApiKeyRecord',
  z.object({
    id: z.uuid(),
    operatorId: z.uuid(),
    keyHash: z.string().describe('SHA-256 hex digest of the key'),
    label: z.string(),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    revoked: z.boolean(),
    mcp_enabled: z.boolean(),
    mcp_workflow_allowlist: z.array(z.string()).nullable(),
  }),
);

const Message = z.object({ success: z.literal(true), message: z.string() });
const security = [{ [bearerApiKey.name]: [] }, { [bearerSession.name]: [] }];
const authErrors = { 401: jsonContent(TextError, 'Missing, invalid or revoked credentials'), 403: jsonContent(TextError, 'Not an Owner or Admin, or another operator') };

registry.registerPath({
  method: 'post',
  path: '/api-keys',
  summary: 'Create an API key (the plaintext is returned once)',
  security,
  request: { body: jsonContent(CreateKeyBody, 'The operator and an optional label', examples.createKeyBody) },
  responses: {
    201: jsonContent(
      z.object({ success: z.literal(true), data: z.object({ id: z.uuid(), key: z.string(), label: z.string(), createdAt: z.string() }) }),
      'Created',
      examples.createdKey,
    ),
    400: jsonContent(TextError, 'operatorId is required'),
    ...authErrors,
    500: jsonContent(TextError, 'Failed to create key'),
  },
});

registry.registerPath({
  method: 'get',
  path: '/api-keys',
  summary: "List the authenticated operator's keys (hashes only)",
  security,
  responses: {
    200: jsonContent(z.object({ success: z.literal(true), data: z.array(ApiKeyRecord) }), 'Keys, newest first', examples.keyList),
    ...authErrors,
    500: jsonContent(TextError, 'Failed to list keys'),
  },
});

registry.registerPath({
  method: 'patch',
  path: '/api-keys',
  summary: 'Rename a key',
  security,
  request: { body: jsonContent(RenameKeyBody, 'Key id and new label', examples.renameKeyBody) },
  responses: {
    200: jsonContent(Message, 'Key renamed', examples.keyRenamed),
    400: jsonContent(TextError, 'id and label are required'),
    ...authErrors,
    404: jsonContent(TextError, 'Key not found'),
    500: jsonContent(TextError, 'Failed to rename key'),
  },
});

registry.registerPath({
  method: 'delete',
  path: '/api-keys',
  summary: 'Revoke a key, or hard-delete a revoked key with hard=true',
  security,
  request: { query: DeleteKeyQuery },
  responses: {
    200: jsonContent(Message, 'Key revoked / Key deleted', examples.keyRevoked),
    400: jsonContent(TextError, "Query parameter 'id' is required, last-key guard, or active key on hard delete"),
    ...authErrors,
    404: jsonContent(TextError, 'Key not found'),
    500: jsonContent(TextError, 'Failed to revoke key / Failed to delete key'),
  },
});

registry.registerPath({
  method: 'patch',
  path: '/api-keys/{id}/mcp',
  summary: 'Enable MCP for a key and set its workflow allowlist',
  security,
  request: { params: KeyIdParams, body: jsonContent(McpSettingsBody, 'MCP flag and allowlist (null = every exposed workflow)', examples.mcpSettingsBody) },
  responses: {
    200: jsonContent(
      z.object({ success: z.literal(true), data: z.object({ id: z.uuid(), mcp_enabled: z.boolean(), mcp_workflow_allowlist: z.array(z.string()).nullable() }) }),
      'Updated settings',
      examples.mcpSettings,
    ),
    400: jsonContent(TextError, 'Invalid MCP settings, or Unknown workflow ids in mcp_workflow_allowlist (ids that are not this operator’s workflows)'),
    ...authErrors,
    404: jsonContent(TextError, 'Key not found'),
  },
});
