import { createApiKey } from '../../commands/apiKeys/create';
import { updateApiKeyMcpSettings } from '../../commands/apiKeys/mcpSettings';
import { renameApiKey } from '../../commands/apiKeys/rename';
import { deleteApiKey, revokeApiKey } from '../../commands/apiKeys/revoke';
import { CommandError } from '../../commands/errors';
import { listApiKeys } from '../../db/queries/apiKeys';
import { actorOf } from '../actor';
import { AppError } from '../errors';
import { apiKeys } from './area';
import { apiKeyRecord, createdKeyRecord, mcpSettingsRecord } from './presenters';
import { CreateKeyBody, DeleteKeyQuery, KeyIdParams, McpSettingsBody, RenameKeyBody } from './schema';

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

/**
 * `POST /`: read raw, as the spec words its refusal by what is wrong first (`operatorId is required`, then the label),
 * and a blank operatorId counts as missing.
 */
export const createKey = apiKeys.handler({ raw: ['body'] }, async ({ deps, ctx, principal, raw }) => {
  const { operatorId } = principal;
  const body = (raw.body ?? {}) as Record<string, unknown>;
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
      actor: actorOf(principal),
    }),
  );
  ctx.status = 201;
  ctx.body = { success: true, data: createdKeyRecord(row, key) };
});

export const listKeys = apiKeys.handler({}, async ({ deps, ctx, principal }) => {
  const rows = await guarded('Failed to list keys', () => listApiKeys(deps.db, principal.operatorId));
  ctx.body = { success: true, data: rows.map(apiKeyRecord) };
});

/**
 * `PATCH /` and `DELETE /` read their input raw: the spec fixes one text per operation, and `/` is one literal path
 * whose body parser's refusals (`api/areas.ts`) cannot speak two operations' texts.
 */
export const renameKey = apiKeys.handler({ raw: ['body'] }, async ({ deps, ctx, principal, raw }) => {
  const parsed = RenameKeyBody.safeParse(raw.body ?? {});
  if (!parsed.success) throw badRequest('id and label are required');
  await guarded('Failed to rename key', () => renameApiKey(deps, { operatorId: principal.operatorId, ...parsed.data, actor: actorOf(principal) }));
  ctx.body = { success: true, message: 'Key renamed' };
});

export const revokeOrDeleteKey = apiKeys.handler({ raw: ['query'] }, async ({ deps, ctx, principal, raw }) => {
  const parsed = DeleteKeyQuery.safeParse(raw.query);
  if (!parsed.success) throw badRequest("Query parameter 'id' is required");
  const key = { operatorId: principal.operatorId, id: parsed.data.id, actor: actorOf(principal) };
  if (parsed.data.hard === 'true') {
    await guarded('Failed to delete key', () => deleteApiKey(deps, key));
    deps.caches.apiKeys.clear();
    ctx.body = { success: true, message: 'Key deleted' };
    return;
  }
  await guarded('Failed to revoke key', () => revokeApiKey(deps, key));
  deps.caches.apiKeys.clear();
  ctx.body = { success: true, message: 'Key revoked' };
});

/** One text naming every offending field of the body (`KeyIdParams` is any string, so only the body can fail). */
export const updateMcpSettings = {
  inputError: ({ problems }: { problems: Array<{ field: string }> }) =>
    badRequest(
      `Invalid MCP settings: ${[...new Set(problems.map((problem) => problem.field))].join(', ')} (mcp_enabled is a boolean, mcp_workflow_allowlist null or an array of workflow ids)`,
    ),
  ...apiKeys.handler({ input: { params: KeyIdParams, body: McpSettingsBody } }, async ({ deps, ctx, input: { params, body }, principal }) => {
    const row = await guarded('Failed to update key', () =>
      updateApiKeyMcpSettings(deps, {
        operatorId: principal.operatorId,
        id: params.id,
        mcpEnabled: body.mcp_enabled,
        mcpWorkflowAllowlist: body.mcp_workflow_allowlist,
        actor: actorOf(principal),
      }),
    );
    deps.caches.apiKeys.clear();
    ctx.body = { success: true, data: mcpSettingsRecord(row) };
  }),
};
