import { z } from 'zod';
import type { AppDeps } from '../deps';
import { jsonContent, TextError } from '../openapi/registry';
import * as examples from './examples';
import { createKey, listKeys, renameKey, revokeOrDeleteKey, updateMcpSettings } from './handlers';
import { DeleteKeyQuery, RenameKeyBody, ApiKeyRecord, CreatedKey, CreateKeyBody, McpSettings } from './schema';
import { apiKeys } from './area';

const Message = z.object({ success: z.literal(true), message: z.string() });
const authErrors = {
  401: jsonContent(TextError, 'Missing, invalid or revoked credentials'),
  403: jsonContent(TextError, 'Not an Owner or Admin, or another operator'),
};

apiKeys.endpoint({
  method: 'post',
  path: '/',
  summary: 'Create an API key (the plaintext is returned once)',
  guards: ['auth', 'manager'],
  request: { body: { schema: CreateKeyBody, description: 'The operator and an optional label', example: examples.createKeyBody } },
  responses: {
    201: jsonContent(z.object({ success: z.literal(true), data: CreatedKey }), 'Created', examples.createdKey),
    400: jsonContent(TextError, 'operatorId is required'),
    ...authErrors,
    500: jsonContent(TextError, 'Failed to create key'),
  },
  ...createKey,
});

apiKeys.endpoint({
  method: 'get',
  path: '/',
  summary: "List the authenticated operator's keys (hashes only)",
  guards: ['auth'],
  responses: {
    200: jsonContent(z.object({ success: z.literal(true), data: z.array(ApiKeyRecord) }), 'Keys, newest first', examples.keyList),
    ...authErrors,
    500: jsonContent(TextError, 'Failed to list keys'),
  },
  ...listKeys,
});

apiKeys.endpoint({
  method: 'patch',
  path: '/',
  summary: 'Rename a key',
  guards: ['auth', 'manager'],
  request: { body: { schema: RenameKeyBody, description: 'Key id and new label', example: examples.renameKeyBody } },
  responses: {
    200: jsonContent(Message, 'Key renamed', examples.keyRenamed),
    400: jsonContent(TextError, 'id and label are required'),
    ...authErrors,
    404: jsonContent(TextError, 'Key not found'),
    500: jsonContent(TextError, 'Failed to rename key'),
  },
  ...renameKey,
});

apiKeys.endpoint({
  method: 'delete',
  path: '/',
  summary: 'Revoke a key, or hard-delete a revoked key with hard=true',
  guards: ['auth', 'manager'],
  request: { query: DeleteKeyQuery },
  responses: {
    200: jsonContent(Message, 'Key revoked / Key deleted', examples.keyRevoked),
    400: jsonContent(TextError, "Query parameter 'id' is required, last-key guard, or active key on hard delete"),
    ...authErrors,
    404: jsonContent(TextError, 'Key not found'),
    500: jsonContent(TextError, 'Failed to revoke key / Failed to delete key'),
  },
  ...revokeOrDeleteKey,
});

apiKeys.endpoint({
  method: 'patch',
  path: '/:id/mcp',
  summary: 'Enable MCP for a key and set its workflow allowlist',
  guards: ['auth', 'manager'],
  request: {
    body: { description: 'MCP flag and allowlist (null = every exposed workflow)', example: examples.mcpSettingsBody },
  },
  responses: {
    200: jsonContent(z.object({ success: z.literal(true), data: McpSettings }), 'Updated settings', examples.mcpSettings),
    400: jsonContent(TextError, 'Invalid MCP settings, or Unknown workflow ids in mcp_workflow_allowlist (ids that are not this operator’s workflows)'),
    ...authErrors,
    404: jsonContent(TextError, 'Key not found'),
  },
  ...updateMcpSettings,
});

export const createApiKeysRouter = (deps: AppDeps) => apiKeys.router(deps);
