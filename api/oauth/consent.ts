import { z } from 'zod';
import { redirectHostOf, SCOPE_READ, SCOPE_WRITE, scopeForTool } from '../../core/mcpOAuth';
import { decideAuthorizationRequest, mayApproveWrite } from '../../commands/mcpOAuth/authorizationRequests';
import { getOAuthSettings } from '../../db/queries/mcpGrants';
import { findLiveClient, findLiveRequest } from '../../db/queries/oauthClients';
import { AppError } from '../errors';
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
    may_approve_write: mayApproveWrite(member.role, settings),
    tools: tools.map((tool) => ({ name: tool.name, title: tool.title ?? tool.name, scope: scopeForTool(tool.annotations) })),
  };
});

/**
 * `POST /oauth/requests/:id/decision` (commands/mcpOAuth/authorizationRequests.ts): the answer is where the page sends
 * the browser — the host's redirect URI with `code` or `error=access_denied`, `state` and `iss`. A decision not allowed
 * (OAuth hosts turned off, or a Member approving tools with real effects where Members may not) is 403
 * `access_denied`, the request kept so the member can approve less.
 */
export const decideHandler = oauth.handler(
  { input: { params: RequestParams, body: DecisionBody } },
  async ({ deps, ctx, input: { params, body }, principal }) => {
    const member = principal;
    const decision = await decideAuthorizationRequest(deps, {
      operatorId: member.operatorId,
      member: { id: member.memberId, role: member.role },
      requestId: params.id,
      decision: body.decision,
      scopes: body.scopes,
    });
    if (decision.kind === 'unknown_request') throw expired();
    if (decision.kind === 'not_allowed') throw new AppError(403, 'access_denied', decision.description);
    const urls = oauthUrls(deps.config);
    const back = (values: Record<string, string>) => redirectWith(decision.redirectUri, { ...values, state: decision.state ?? undefined, iss: urls.issuer });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      redirect_to:
        decision.code === undefined ? back({ error: 'access_denied', error_description: 'The member denied access' }) : back({ code: decision.code }),
    };
  },
);
