import { z } from 'zod';
import { registry } from '../openapi/registry';

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

export const ApiKeyRecord = registry.register(
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

export const CreatedKey = z.object({ id: z.uuid(), key: z.string(), label: z.string(), createdAt: z.string() });
export const McpSettings = z.object({ id: z.uuid(), mcp_enabled: z.boolean(), mcp_workflow_allowlist: z.array(z.string()).nullable() });
