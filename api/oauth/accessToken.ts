import { sha256Hex } from '../../core/apiKeyToken';
import { SCOPE_WRITE, type McpScope } from '../../core/mcpOAuth';
import { findMember } from '../../db/queries/identity';
import { recordGrantUse } from '../../commands/mcpOAuth/tokens';
import { findToken, getOAuthSettings } from '../../db/queries/mcpGrants';
import type { AppDeps } from '../deps';
import { oauthUrls } from './urls';

/**
 * An MCP host acting through a member's OAuth grant: the member's organisation, the organisation's allowlist for hosts,
 * and the scopes the member approved. `keyId` is the grant's id: it owns the tasks the host starts, as an API key does.
 */
export interface OAuthPrincipal {
  kind: 'oauth';
  operatorId: string;
  keyId: string;
  grantId: string;
  memberId: string;
  clientName: string;
  scopes: McpScope[];
  /** The organisation's switch for OAuth hosts (mcp_oauth_settings.enabled). */
  mcpEnabled: boolean;
  mcpAutomationAllowlist: string[] | null;
}

/**
 * The principal an `mcpat_` access token stands for, or why not: unknown or expired, its grant revoked, issued for
 * another resource (the audience, checked on every request), or its member suspended or gone.
 */
export async function resolveAccessToken(deps: AppDeps, token: string): Promise<OAuthPrincipal | { refused: string }> {
  const found = await findToken(deps.db, sha256Hex(token), 'access');
  if (!found || found.grant.revoked_at) return { refused: 'The access token is invalid, expired or revoked' };
  if (found.resource !== oauthUrls(deps.config).resource)
    return { refused: `The access token was issued for another resource than ${oauthUrls(deps.config).resource}` };
  const { grant } = found;
  const member = await deps.caches.members.get(`${grant.operator_id}:${grant.member_id}`, () => findMember(deps.db, grant.operator_id, grant.member_id));
  if (!member || member.status !== 'active') return { refused: 'The member who approved this host no longer has access' };
  const settings = await getOAuthSettings(deps.db, grant.operator_id);
  // Role rules apply at every use, not only at consent: a member moved to Member loses write where Members may not write.
  const scopes = (grant.scopes as McpScope[]).filter((scope) => scope !== SCOPE_WRITE || member.role !== 'member' || settings.members_may_write);
  recordGrantUse(deps, { operatorId: grant.operator_id, grantId: grant.id }).catch((error: Error) =>
    deps.logger.warn({ err: { message: error.message } }, 'grant use not recorded'),
  );
  return {
    kind: 'oauth',
    operatorId: grant.operator_id,
    keyId: grant.id,
    grantId: grant.id,
    memberId: grant.member_id,
    clientName: grant.client_name,
    scopes,
    mcpEnabled: settings.enabled,
    mcpAutomationAllowlist: settings.workflow_allowlist,
  };
}
