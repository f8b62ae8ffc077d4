import type { Actor } from '../../core/audit';
import { existingAutomationIds } from '../../db/queries/mcpTools';
import { getOAuthSettings, putOAuthSettings, type McpOAuthSettings } from '../../db/queries/mcpGrants';
import type { Db } from '../../db/knex';
import { recordAudit } from '../audit';
import { CommandError } from '../errors';

/**
 * Sets the organisation's rules for OAuth hosts, audited as `settings.updated` on target `mcp_oauth`. An allowlist
 * naming a workflow the organisation does not have is refused whole, as for API keys.
 */
export async function updateOAuthSettings(db: Db, input: { operatorId: string; actor: Actor; change: Partial<McpOAuthSettings> }): Promise<McpOAuthSettings> {
  const allowlist = input.change.workflow_allowlist;
  if (allowlist && allowlist.length > 0) {
    const known = await existingAutomationIds(db, input.operatorId, allowlist);
    const unknown = [...new Set(allowlist.filter((id) => !known.has(id)))];
    if (unknown.length > 0) throw new CommandError('VALIDATION_FAILED', `Unknown workflow ids in workflow_allowlist: ${unknown.join(', ')}`);
  }
  return db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`mcp_oauth_settings:${input.operatorId}`]);
    const before = await getOAuthSettings(trx, input.operatorId);
    const after = await putOAuthSettings(trx, input.operatorId, { ...before, ...input.change });
    await recordAudit(trx, {
      operatorId: input.operatorId,
      actor: input.actor,
      action: 'settings.updated',
      target: { type: 'settings', id: 'mcp_oauth' },
      before,
      after,
    });
    return after;
  });
}
