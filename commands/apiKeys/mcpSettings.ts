import type { Actor } from '../../core/audit';
import { lockApiKey, updateApiKeyMcp, type ApiKeyRow } from '../../db/queries/apiKeys';
import { existingAutomationIds } from '../../db/queries/mcpTools';
import { recordAudit } from '../audit';
import type { CommandDeps } from '../deps';
import { assertKeyId, invalidKeyRequest, keyNotFound } from './refusals';

export interface ApiKeyMcpSettingsInput {
  operatorId: string;
  id: string;
  /** Left out: unchanged. */
  mcpEnabled?: boolean;
  /** Left out: unchanged; null: every workflow the operator exposes to MCP. */
  mcpWorkflowAllowlist?: string[] | null;
  /** Who changes them, as the audit event's actor. */
  actor: Actor;
}

/**
 * Turns MCP on or off for a key and sets which workflows it may call. An allowlist naming a workflow the operator
 * does not have (or has deleted) is refused whole, so a typo never silently narrows what the key can reach.
 */
export async function updateApiKeyMcpSettings(deps: Pick<CommandDeps, 'db'>, input: ApiKeyMcpSettingsInput): Promise<ApiKeyRow> {
  assertKeyId(input.id);
  const allowlist = input.mcpWorkflowAllowlist;
  if (allowlist && allowlist.length > 0) {
    const known = await existingAutomationIds(deps.db, input.operatorId, allowlist);
    const unknown = [...new Set(allowlist.filter((workflowId) => !known.has(workflowId)))];
    if (unknown.length > 0) throw invalidKeyRequest(`Unknown workflow ids in mcp_workflow_allowlist: ${unknown.join(', ')}`);
  }
  return deps.db.transaction(async (trx) => {
    const before = await lockApiKey(trx, input.operatorId, input.id);
    const row = before && (await updateApiKeyMcp(trx, input.operatorId, input.id, { mcpEnabled: input.mcpEnabled, mcpAutomationAllowlist: allowlist }));
    if (!before || !row) throw keyNotFound();
    await recordAudit(trx, {
      operatorId: input.operatorId,
      actor: input.actor,
      action: 'api_key.mcp_updated',
      target: { type: 'api_key', id: input.id },
      before,
      after: row,
    });
    return row;
  });
}
