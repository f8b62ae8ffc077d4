import type { Context } from 'koa';
import { generateApiKey, sha256Hex } from '../../core/apiKeyToken';
import { isUuid } from '../../core/ids';
import { deleteRevokedApiKey, insertApiKey, listApiKeys, renameApiKey, revokeApiKey, updateApiKeyMcp } from '../../db/queries/apiKeys';
import { existingAutomationIds } from '../../db/queries/mcpTools';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { operatorOf, principalOf } from '../middleware/authenticate';
import { apiKeyRecord, createdKeyRecord, mcpSettingsRecord } from './presenters';
import { CreateKeyBody, DeleteKeyQuery, McpSettingsBody, RenameKeyBody } from './schema';

const badRequest = (text: string) => new AppError(400, 'INVALID_INPUT', text);
const keyNotFound = () => new AppError(404, 'NOT_FOUND', 'Key not found');

/** Runs a database step; a failure becomes the spec's 500 text for that operation (the cause is logged). */
async function guarded<T>(failureText: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof AppError) throw error;
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
  const key = generateApiKey();
  const row = await guarded('Failed to create key', () =>
    insertApiKey(deps.db, {
      operatorId,
      keyHash: sha256Hex(key),
      label: parsed.data.label ?? '',
      createdByMemberId: principal.kind === 'session' ? principal.memberId : null,
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
  const { id, label } = parsed.data;
  const renamed = isUuid(id) && (await guarded('Failed to rename key', () => renameApiKey(deps.db, operatorOf(ctx), id, label)));
  if (!renamed) throw keyNotFound();
  ctx.body = { success: true, message: 'Key renamed' };
}

export async function revokeOrDeleteKey(deps: AppDeps, ctx: Context): Promise<void> {
  const parsed = DeleteKeyQuery.safeParse(ctx.query);
  if (!parsed.success) throw badRequest("Query parameter 'id' is required");
  const { id, hard } = parsed.data;
  if (!isUuid(id)) throw keyNotFound();
  const operatorId = operatorOf(ctx);
  if (hard === 'true') {
    const outcome = await guarded('Failed to delete key', () => deleteRevokedApiKey(deps.db, operatorId, id));
    deps.caches.apiKeys.clear();
    if (outcome === 'not_found') throw keyNotFound();
    if (outcome === 'active') throw badRequest('Cannot delete an active key. Revoke it first, then delete it.');
    ctx.body = { success: true, message: 'Key deleted' };
    return;
  }
  const outcome = await guarded('Failed to revoke key', () => revokeApiKey(deps.db, operatorId, id));
  deps.caches.apiKeys.clear();
  if (outcome === 'not_found') throw keyNotFound();
  if (outcome === 'last_active_key') {
    throw badRequest('Cannot revoke your last active API key. Create a new key first, then revoke this one.');
  }
  ctx.body = { success: true, message: 'Key revoked' };
}

export async function updateMcpSettings(deps: AppDeps, ctx: Context): Promise<void> {
  const id = ctx.params.id ?? '';
  const parsed = McpSettingsBody.safeParse(ctx.request.body ?? {});
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || 'body'))];
    throw badRequest(`Invalid MCP settings: ${fields.join(', ')} (mcp_enabled is a boolean, mcp_workflow_allowlist null or an array of workflow ids)`);
  }
  if (!isUuid(id)) throw keyNotFound();
  const operatorId = operatorOf(ctx);
  const allowlist = parsed.data.mcp_workflow_allowlist;
  if (allowlist && allowlist.length > 0) {
    const known = await guarded('Failed to update key', () => existingAutomationIds(deps.db, operatorId, allowlist));
    const unknown = [...new Set(allowlist.filter((workflowId) => !known.has(workflowId)))];
    if (unknown.length > 0) throw badRequest(`Unknown workflow ids in mcp_workflow_allowlist: ${unknown.join(', ')}`);
  }
  const row = await guarded('Failed to update key', () =>
    updateApiKeyMcp(deps.db, operatorId, id, {
      mcpEnabled: parsed.data.mcp_enabled,
      mcpAutomationAllowlist: parsed.data.mcp_workflow_allowlist,
    }),
  );
  deps.caches.apiKeys.clear();
  if (!row) throw keyNotFound();
  ctx.body = { success: true, data: mcpSettingsRecord(row) };
}
