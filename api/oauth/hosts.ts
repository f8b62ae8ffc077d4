import { z } from 'zod';
import { revokeGrantByMember } from '../../commands/mcpOAuth/tokens';
import { updateOAuthSettings } from '../../commands/mcpOAuth/settings';
import { getOAuthSettings, listGrants, type McpGrantRow } from '../../db/queries/mcpGrants';
import { AppError } from '../errors';
import { oauth } from './area';

export const GrantParams = z.object({ id: z.uuid('must be a connected host id') });

export const SettingsBody = z
  .object({
    enabled: z.boolean().optional(),
    members_may_write: z.boolean().optional(),
    workflow_allowlist: z.array(z.string().min(1).max(100)).max(1000).nullable().optional(),
  })
  .strict();

const presentGrant = (grant: McpGrantRow) => ({
  id: grant.id,
  client_id: grant.client_id,
  client_name: grant.client_name,
  redirect_host: grant.redirect_host,
  member_id: grant.member_id,
  scopes: grant.scopes,
  created_at: grant.created_at.toISOString(),
  last_used_at: grant.last_used_at?.toISOString() ?? null,
  revoked_at: grant.revoked_at?.toISOString() ?? null,
  revoked_reason: grant.revoked_reason,
});

/** `GET /oauth/hosts`: the organisation's connected hosts (grants), newest first, with last use; revoked ones too. */
export const listHostsHandler = oauth.handler({}, async ({ deps, ctx, principal }) => {
  const member = principal;
  ctx.body = { success: true, data: (await listGrants(deps.db, member.operatorId)).map(presentGrant) };
});

/** `DELETE /oauth/hosts/:id`: disconnects a host — the Owner and Admins any, a Member the hosts they approved. */
export const revokeHostHandler = oauth.handler({ input: { params: GrantParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  const member = principal;
  const grant = (await listGrants(deps.db, member.operatorId)).find((row) => row.id === params.id);
  if (!grant || grant.revoked_at) throw new AppError(404, 'NOT_FOUND', 'No connected host with this id');
  if (member.role === 'member' && grant.member_id !== member.memberId)
    throw new AppError(403, 'FORBIDDEN', 'A Member may disconnect only the hosts they approved');
  if (!(await revokeGrantByMember(deps, { operatorId: member.operatorId, grantId: params.id, memberId: member.memberId }))) {
    throw new AppError(404, 'NOT_FOUND', 'No connected host with this id');
  }
  ctx.status = 204;
});

/** `GET /oauth/settings`: the organisation's rules for OAuth hosts. */
export const getSettingsHandler = oauth.handler({}, async ({ deps, ctx, principal }) => {
  ctx.body = { success: true, data: await getOAuthSettings(deps.db, principal.operatorId) };
});

/** `PUT /oauth/settings`: the Owner and Admins change them. */
export const putSettingsHandler = oauth.handler({ input: { body: SettingsBody } }, async ({ deps, ctx, input: { body }, principal }) => {
  const member = principal;
  if (member.role === 'member') throw new AppError(403, 'FORBIDDEN', 'Only the Owner or an Admin can change the rules for MCP hosts');
  const change = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
  ctx.body = { success: true, data: await updateOAuthSettings(deps.db, { operatorId: member.operatorId, actor: `member:${member.memberId}`, change }) };
});
