import type { Context } from 'koa';
import { createApiKey } from '../../commands/apiKeys/create';
import { updateApiKeyMcpSettings } from '../../commands/apiKeys/mcpSettings';
import { renameApiKey } from '../../commands/apiKeys/rename';
import { deleteApiKey, revokeApiKey } from '../../commands/apiKeys/revoke';
import { CommandError } from '../../commands/errors';
import { listApiKeys } from '../../db/queries/apiKeys';
import { actorOf } from '../actor';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { operatorOf, principalOf } from '../middleware/authenticate';
import { apiKeyRecord, createdKeyRecord, mcpSettingsRecord } from './presenters';
import { CreateKeyBody, DeleteKeyQuery, McpSettingsBody, RenameKeyBody } from './schema';

const badRequest = (text: string) => new AppError(400, 'INVALID_INPUT', text);

/** Runs an operation; a fault (not a refusal) becomes the spec's 500 text for it, the cause going to the log. */
async function guarded<T>(failureText: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof CommandError || error instanceof AppError) throw error;
    throw new AppError(500, 'INTERNAL_ERROR', failureText, { cause: error });
  }
}

export async function createKey(deps: AppDeps, ctx: Context): Promise<void> {
  const principal = principalOf(ctx);
  const operatorId = operatorOf(ctx);
  const body = (ctx.request.body ?? {}) as Record<string, unknown>;
  if (typeof body.operatorId !== 'string' || body.operatorId.trim() === '') throw badRequest('operatorId is required');
  const parsed = CreateKeyBody.safeParse(body);
  if (!parsed.success) throw badRequest('label must be a string of at most 200 characters');
  if (parsed.data.operatorId !== operatorId) {
    throw new AppError(403, 'FORBIDDEN', 'operatorId does not match the authenticated operator');
  }
  const { row, key } = await guarded('Failed to create key', () =>
    createApiKey(deps, {
      operatorId,
      label: parsed.data.label,
      createdByMemberId: principal.kind === 'session' ? principal.memberId : null,
      actor: actorOf(ctx),
    }),
  );
  ctx.status = 201;
  ctx.body = { success: true, data: createdKeyRecord(row, key) };
}

export async function listKeys(deps: AppDeps, ctx: Context): Promise<void> {
  const rows = await guarded('Failed to list keys', () => listApiKeys(deps.db, operatorOf(ctx)));
  ctx.body = { success: true, data: rows.map(apiKeyRecord) };
}

export async function renameKey(deps: AppDeps, ctx: Context): Promise<void> {
  const parsed = RenameKeyBody.safeParse(ctx.request.body ?? {});
  if (!parsed.success) throw badRequest('id and label are required');
  await guarded('Failed to rename key', () => renameApiKey(deps, { operatorId: operatorOf(ctx), ...parsed.data, actor: actorOf(ctx) }));
  ctx.body = { success: true, message: 'Key renamed' };
}

export async function revokeOrDeleteKey(deps: AppDeps, ctx: Context): Promise<void> {
  const parsed = DeleteKeyQuery.safeParse(ctx.query);
  if (!parsed.success) throw badRequest("Query parameter 'id' is required");
  const key = { operatorId: operatorOf(ctx), id: parsed.data.id, actor: actorOf(ctx) };
  if (parsed.data.hard === 'true') {
    await guarded('Failed to delete key', () => deleteApiKey(deps, key));
    deps.caches.apiKeys.clear();
    ctx.body = { success: true, message: 'Key deleted' };
    return;
  }
  await guarded('Failed to revoke key', () => revokeApiKey(deps, key));
  deps.caches.apiKeys.clear();
  ctx.body = { success: true, message: 'Key revoked' };
}

export async function updateMcpSettings(deps: AppDeps, ctx: Context): Promise<void> {
  const parsed = McpSettingsBody.safeParse(ctx.request.body ?? {});
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || 'body'))];
    throw badRequest(`Invalid MCP settings: ${fields.join(', ')} (mcp_enabled is a boolean, mcp_workflow_allowlist null or an array of workflow ids)`);
  }
  const row = await guarded('Failed to update key', () =>
    updateApiKeyMcpSettings(deps, {
      operatorId: operatorOf(ctx),
      id: ctx.params.id ?? '',
      mcpEnabled: parsed.data.mcp_enabled,
      mcpWorkflowAllowlist: parsed.data.mcp_workflow_allowlist,
      actor: actorOf(ctx),
    }),
  );
  deps.caches.apiKeys.clear();
  ctx.body = { success: true, data: mcpSettingsRecord(row) };
}
