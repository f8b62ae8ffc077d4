/**
 * An MCP host's authorization request (RFC 6749 4.1), from the host's redirect to the member's decision on the consent
 * page (docs/mcp.md "Authorization (OAuth 2.1)"): opened, kept `LIFETIMES.request` seconds, decided once.
 */
import { prefixedId } from '../../core/ids';
import {
  isS256Challenge,
  LIFETIMES,
  parseScopes,
  redirectHostOf,
  REQUEST_PREFIX,
  redirectUriRegistered,
  SCOPE_READ,
  SCOPE_WRITE,
  type McpScope,
} from '../../core/mcpOAuth';
import type { MemberRole } from '../../db/queries/identity';
import { getOAuthSettings, type McpOAuthSettings } from '../../db/queries/mcpGrants';
import { findLiveClient, findLiveRequest, insertRequest, takeRequest, type OAuthRequestRow } from '../../db/queries/oauthClients';
import type { CommandDeps } from '../deps';
import { resolveClient } from './clients';
import { approveGrant } from './tokens';

/** What a host's authorization request asks (RFC 6749 4.1.1, RFC 7636, RFC 8707), each parameter as sent. */
export interface AuthorizationRequestInput {
  clientId: string;
  redirectUri: string | undefined;
  responseType: string | undefined;
  codeChallenge: string | undefined;
  codeChallengeMethod: string | undefined;
  state: string | undefined;
  scope: string | undefined;
  resource: string | undefined;
  /** The MCP server's resource identifier: the one `resource` a host may ask for, and what an absent one means. */
  mcpResource: string;
}

/** The refusals RFC 6749 4.1.2.1 (and RFC 8707 2) send back to the host's redirect URI. */
export type AuthorizationRefusal = 'unsupported_response_type' | 'invalid_request' | 'invalid_scope' | 'invalid_target';

export type AuthorizationRequestResult =
  /** Kept `LIFETIMES.request` seconds, for a member to approve or deny on the consent page. */
  | { kind: 'opened'; requestId: string }
  /** No redirect URI can be trusted with an answer: the refusal is the caller's to give, never sent to an unchecked URI. */
  | { kind: 'redirect_uri_refused'; description: string }
  /** Refused, for the host to hear at its checked redirect URI. */
  | { kind: 'refused'; redirectUri: string; error: AuthorizationRefusal; description: string };

/**
 * Opens an authorization request: the client (`invalid_client` when unknown) and its redirect URI first — the one it
 * registered when it registered only one — then `response_type=code`, an S256 `code_challenge`, the scopes and the
 * `resource` (exactly the MCP resource). A valid request is stored for the consent page.
 */
export async function openAuthorizationRequest(
  deps: Pick<CommandDeps, 'db' | 'config'>,
  input: AuthorizationRequestInput,
): Promise<AuthorizationRequestResult> {
  const client = await resolveClient(deps, input.clientId);
  const redirectUri = input.redirectUri ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined);
  if (!redirectUri) return { kind: 'redirect_uri_refused', description: 'redirect_uri is required (the client registered several)' };
  if (!redirectUriRegistered(client.redirect_uris, redirectUri))
    return { kind: 'redirect_uri_refused', description: 'redirect_uri is not one the client registered' };
  const refused = (error: AuthorizationRefusal, description: string): AuthorizationRequestResult => ({ kind: 'refused', redirectUri, error, description });
  if (input.responseType !== 'code') return refused('unsupported_response_type', 'response_type must be code');
  if (!input.codeChallenge || !isS256Challenge(input.codeChallenge)) return refused('invalid_request', 'code_challenge (S256, 43 characters) is required');
  if (input.codeChallengeMethod !== 'S256') return refused('invalid_request', 'code_challenge_method must be S256');
  const scopes = parseScopes(input.scope);
  if ('problem' in scopes) return refused('invalid_scope', scopes.problem);
  const resource = input.resource ?? input.mcpResource;
  if (resource !== input.mcpResource) return refused('invalid_target', `resource must be ${input.mcpResource}`);
  const requestId = prefixedId(REQUEST_PREFIX);
  await insertRequest(deps.db, {
    id: requestId,
    client_id: client.id,
    redirect_uri: redirectUri,
    state: input.state ?? null,
    code_challenge: input.codeChallenge,
    scopes,
    resource,
    ttlSeconds: LIFETIMES.request,
  });
  return { kind: 'opened', requestId };
}

/** Whether a member of `role` may approve tools with real effects: the Owner and Admins, a Member only where the organisation allows it. */
export const mayApproveWrite = (role: MemberRole, settings: McpOAuthSettings): boolean => role !== 'member' || settings.members_may_write;

/** The scopes to grant: those asked for unless the member narrowed them (never more than asked). */
function grantedScopes(request: OAuthRequestRow, chosen: McpScope[] | undefined): McpScope[] {
  const asked = request.scopes as McpScope[];
  if (!chosen) return asked;
  const kept = asked.filter((scope) => chosen.includes(scope));
  return kept.includes(SCOPE_WRITE) ? [SCOPE_READ, SCOPE_WRITE] : [SCOPE_READ];
}

export interface AuthorizationDecisionInput {
  operatorId: string;
  member: { id: string; role: MemberRole };
  requestId: string;
  decision: 'approve' | 'deny';
  /** The scopes approved: those asked for, or fewer. Absent: all asked for. */
  scopes: McpScope[] | undefined;
}

export type AuthorizationDecision =
  /** Unknown, expired or decided already. */
  | { kind: 'unknown_request' }
  /** Not decided, the request kept so the member can approve less: why, in words a member can act on. */
  | { kind: 'not_allowed'; description: string }
  /** Decided: the host hears it at its redirect URI with its `state`, `code` when approved. */
  | { kind: 'decided'; redirectUri: string; state: string | null; code?: string };

/**
 * A member's decision on an authorization request, taken once (the request is removed as it is decided). Approving
 * creates the grant and its code (`approveGrant`); it is not allowed while the organisation has turned OAuth hosts off,
 * nor for a Member approving tools with real effects where the organisation does not let Members do so.
 */
export async function decideAuthorizationRequest(deps: Pick<CommandDeps, 'db'>, input: AuthorizationDecisionInput): Promise<AuthorizationDecision> {
  const pending = await findLiveRequest(deps.db, input.requestId);
  if (!pending) return { kind: 'unknown_request' };
  const scopes = grantedScopes(pending, input.scopes);
  if (input.decision === 'approve') {
    const settings = await getOAuthSettings(deps.db, input.operatorId);
    if (!settings.enabled) return { kind: 'not_allowed', description: 'The organisation has turned off MCP hosts signed in with OAuth' };
    if (scopes.includes(SCOPE_WRITE) && !mayApproveWrite(input.member.role, settings)) {
      return {
        kind: 'not_allowed',
        description: 'A Member may not approve tools with real effects in this organisation: approve read-only tools, or ask an Owner or Admin',
      };
    }
  }
  const request = await takeRequest(deps.db, input.requestId);
  if (!request) return { kind: 'unknown_request' };
  const decided = { kind: 'decided', redirectUri: request.redirect_uri, state: request.state } as const;
  if (input.decision === 'deny') return decided;
  const client = await findLiveClient(deps.db, request.client_id);
  const { code } = await approveGrant(deps, {
    operatorId: input.operatorId,
    memberId: input.member.id,
    client: { id: request.client_id, name: client?.client_name ?? request.client_id },
    redirectUri: request.redirect_uri,
    redirectHost: redirectHostOf(request.redirect_uri),
    codeChallenge: request.code_challenge,
    scopes,
    resource: request.resource,
  });
  return { ...decided, code };
}
