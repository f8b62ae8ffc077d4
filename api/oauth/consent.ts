import { z } from 'zod';
import { redirectHostOf, SCOPE_READ, SCOPE_WRITE, scopeForTool, type McpScope } from '../../core/mcpOAuth';
import { approveGrant } from '../../commands/mcpOAuth/tokens';
import { getOAuthSettings, type McpOAuthSettings } from '../../db/queries/mcpGrants';
import { findLiveClient, findLiveRequest, takeRequest, type OAuthRequestRow } from '../../db/queries/oauthClients';
import { AppError } from '../errors';
import { type SessionPrincipal } from '../middleware/authenticate';
import { listMcpTools } from '../mcp-server/tools';
import { redirectWith } from './authorize';
import { oauthUrls } from './urls';
import { oauth } from './area';

export const RequestParams = z.object({ id: z.string().regex(/^oar_[0-9a-f]{32}$/, 'must be an authorization request id') });

export const DecisionBody = z.object({
  decision: z.enum(['approve', 'deny']),
  /** The scopes approved: those asked for, or fewer (read only). Absent: all asked for. */
  scopes: z
    .array(z.enum([SCOPE_READ, SCOPE_WRITE]))
    .max(2)
    .optional(),
});

const expired = () => new AppError(404, 'invalid_request', 'This authorization request is unknown, expired or already decided: start again from the host');

/** Whether this member may approve tools with real effects: the Owner and Admins, a Member only where the organisation allows it. */
const mayApproveWrite = (member: SessionPrincipal, settings: McpOAuthSettings) => member.role !== 'member' || settings.members_may_write;

/**
 * `GET /oauth/requests/:id`: what the consent page shows — the host's name and where it sends the member back, the
 * organisation's tools each with the scope it needs, and what this member may approve.
 */
export const getRequestHandler = oauth.handler({ input: { params: RequestParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  const member = principal;
  const request = await findLiveRequest(deps.db, params.id);
  if (!request) throw expired();
  const client = await findLiveClient(deps.db, request.client_id);
  const settings = await getOAuthSettings(deps.db, member.operatorId);
  const tools = settings.enabled ? await listMcpTools(deps.db, member.operatorId, settings.workflow_allowlist) : [];
  ctx.set('Cache-Control', 'no-store');
  ctx.body = {
    id: request.id,
    client: { id: request.client_id, name: client?.client_name ?? request.client_id, uri: client?.client_uri ?? null, kind: client?.kind ?? null },
    redirect_host: redirectHostOf(request.redirect_uri),
    scopes: request.scopes,
    resource: request.resource,
    organisation_id: member.operatorId,
    role: member.role,
    enabled: settings.enabled,
    may_approve_write: mayApproveWrite(member, settings),
    tools: tools.map((tool) => ({ name: tool.name, title: tool.title ?? tool.name, scope: scopeForTool(tool.annotations) })),
  };
});

/** The scopes to grant: those asked for unless the member narrowed them (never more than asked). */
function grantedScopes(request: OAuthRequestRow, chosen: McpScope[] | undefined): McpScope[] {
  const asked = request.scopes as McpScope[];
  if (!chosen) return asked;
  const kept = asked.filter((scope) => chosen.includes(scope));
  return kept.includes(SCOPE_WRITE) ? [SCOPE_READ, SCOPE_WRITE] : [SCOPE_READ];
}

/**
 * `POST /oauth/requests/:id/decision`: approving creates the grant and its code; either way the answer is where the
 * page sends the browser — the host's redirect URI with `code` or `error=access_denied`, `state` and `iss`. Refused
 * (403 `access_denied`, the request kept so the member can approve less): the organisation turned OAuth hosts off,
 * or a Member approving tools with real effects where the organisation does not let Members do so.
 */
export const decideHandler = oauth.handler(
  { input: { params: RequestParams, body: DecisionBody } },
  async ({ deps, ctx, input: { params, body }, principal }) => {
    const member = principal;
    const pending = await findLiveRequest(deps.db, params.id);
    if (!pending) throw expired();
    const urls = oauthUrls(deps.config);
    const scopes = grantedScopes(pending, body.scopes);
    if (body.decision === 'approve') {
      const settings = await getOAuthSettings(deps.db, member.operatorId);
      if (!settings.enabled) throw new AppError(403, 'access_denied', 'The organisation has turned off MCP hosts signed in with OAuth');
      if (scopes.includes(SCOPE_WRITE) && !mayApproveWrite(member, settings)) {
        throw new AppError(
          403,
          'access_denied',
          'A Member may not approve tools with real effects in this organisation: approve read-only tools, or ask an Owner or Admin',
        );
      }
    }
    const request = await takeRequest(deps.db, params.id);
    if (!request) throw expired();
    const back = (values: Record<string, string>) => redirectWith(request.redirect_uri, { ...values, state: request.state ?? undefined, iss: urls.issuer });
    ctx.set('Cache-Control', 'no-store');
    if (body.decision === 'deny') {
      ctx.body = { redirect_to: back({ error: 'access_denied', error_description: 'The member denied access' }) };
      return;
    }
    const client = await findLiveClient(deps.db, request.client_id);
    const { code } = await approveGrant(deps.db, {
      operatorId: member.operatorId,
      memberId: member.memberId,
      client: { id: request.client_id, name: client?.client_name ?? request.client_id },
      redirectUri: request.redirect_uri,
      redirectHost: redirectHostOf(request.redirect_uri),
      codeChallenge: request.code_challenge,
      scopes,
      resource: request.resource,
    });
    ctx.body = { redirect_to: back({ code }) };
  },
);
