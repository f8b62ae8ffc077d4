import type { Context } from 'koa';
import { ACCEPTED_PROTOCOL_VERSIONS, isValidSessionId } from '../../core/mcpJsonRpc';
import { ACCESS_TOKEN_PREFIX } from '../../core/mcpOAuth';
import type { AppDeps } from '../deps';
import { AppError, AuthError, type AuthFailure } from '../errors';
import { bearerToken, resolvePrincipal, type ApiKeyPrincipal } from '../middleware/authenticate';
import { resolveAccessToken, type OAuthPrincipal } from '../oauth/accessToken';
import { bearerChallenge } from '../oauth/urls';

/** Who calls the MCP server: an API key (spec 5), or a host through a member's OAuth grant. */
export type McpPrincipal = ApiKeyPrincipal | OAuthPrincipal;

/**
 * Spec 5 rule 4 and 7.6: each authentication failure as its MCP service code and HTTP status, unchanged; every 401
 * also carries the RFC 9728 challenge pointing hosts at the protected-resource metadata (`error="invalid_token"` when
 * a credential was sent), which is how an OAuth host discovers the authorization server.
 */
function mcpAuthError(deps: AppDeps, reason: AuthFailure): AppError {
  const headers = { 'WWW-Authenticate': bearerChallenge(deps.config, reason === 'missing' ? undefined : { code: 'invalid_token' }) };
  switch (reason) {
    case 'missing':
      return new AppError(401, 'AUTH_MISSING', 'Authorization header is required', { headers });
    case 'revoked':
      return new AppError(401, 'AUTH_REVOKED', 'API key has been revoked', { headers });
    case 'invalid':
      return new AppError(401, 'AUTH_INVALID', 'Invalid API key', { headers });
    default:
      // Not `Bearer <token>`, not a `svc_live_` key or an `mcpat_` access token, or a session JWT.
      return new AppError(401, 'AUTH_INVALID_FORMAT', 'Authorization must be Bearer svc_live_<64 hex characters>', { headers });
  }
}

/** An OAuth access token: its refusal is `AUTH_INVALID` with `error="invalid_token"` and the reason. */
async function authenticateOAuth(deps: AppDeps, token: string): Promise<OAuthPrincipal> {
  const resolved = await resolveAccessToken(deps, token);
  if ('refused' in resolved) {
    const headers = { 'WWW-Authenticate': bearerChallenge(deps.config, { code: 'invalid_token', description: resolved.refused }) };
    throw new AppError(401, 'AUTH_INVALID', resolved.refused, { headers });
  }
  return resolved;
}

/**
 * Authenticates an MCP call in the order of spec 5 rule 4: AUTH_MISSING, AUTH_INVALID_FORMAT, AUTH_INVALID,
 * AUTH_REVOKED, then MCP_NOT_ENABLED (403), then AUTH_OPERATOR_MISMATCH (403) on the legacy
 * `/mcp-server/<operator_id>` path. The principal is put on `ctx.state.auth` for rate limits and the access log.
 *
 * @example const principal = await authenticateMcp(deps, ctx, raw.params.operatorId)
 */
export async function authenticateMcp(deps: AppDeps, ctx: Context, pathOperatorId?: string): Promise<McpPrincipal> {
  const header = ctx.get('authorization') || undefined;
  const token = bearerToken(header);
  let principal: McpPrincipal;
  if (typeof token === 'string' && token.startsWith(ACCESS_TOKEN_PREFIX)) {
    principal = await authenticateOAuth(deps, token);
  } else {
    let resolved;
    try {
      resolved = await resolvePrincipal(deps, header, ['apiKey']);
    } catch (error) {
      if (error instanceof AuthError) throw mcpAuthError(deps, error.reason);
      throw error;
    }
    if (resolved.kind !== 'apiKey') throw mcpAuthError(deps, 'invalid_format');
    principal = resolved;
  }
  ctx.state.auth = principal;
  if (!principal.mcpEnabled) {
    throw new AppError(
      403,
      'MCP_NOT_ENABLED',
      principal.kind === 'oauth' ? 'The organisation has turned off MCP hosts signed in with OAuth' : 'MCP is not enabled for this API key',
    );
  }
  if (pathOperatorId !== undefined && pathOperatorId !== principal.operatorId) {
    throw new AppError(403, 'AUTH_OPERATOR_MISMATCH', 'The operator in the URL is not the API key’s operator');
  }
  return principal;
}

/**
 * DNS-rebinding guard of the MCP transport: a browser `Origin` must be one of `ALLOWED_ORIGINS` (any when `*`).
 * Requests without `Origin` (servers, curl, SDK clients in Node) pass.
 */
export function checkOrigin(deps: AppDeps, ctx: Context): void {
  const origin = ctx.get('origin');
  const allowed = deps.config.allowedOrigins;
  if (!origin || allowed === '*' || allowed.includes(origin)) return;
  throw new AppError(403, 'ORIGIN_NOT_ALLOWED', 'Origin is not allowed');
}

/** `MCP-Protocol-Version`, when sent, must be a revision this server speaks; otherwise 400 invalid request. */
export function checkProtocolVersion(ctx: Context): void {
  const version = ctx.get('mcp-protocol-version');
  if (!version || ACCEPTED_PROTOCOL_VERSIONS.includes(version)) return;
  throw new AppError(400, 'INVALID_REQUEST', `Unsupported MCP-Protocol-Version: ${version.slice(0, 40)} (supported: ${ACCEPTED_PROTOCOL_VERSIONS.join(', ')})`);
}

/** The `Mcp-Session-Id` header, if any; a malformed one is 400 invalid request. */
export function sessionIdOf(ctx: Context): string | undefined {
  const value = ctx.get('mcp-session-id');
  if (!value) return undefined;
  if (!isValidSessionId(value)) throw new AppError(400, 'INVALID_REQUEST', 'Mcp-Session-Id must be 1 to 128 visible ASCII characters');
  return value;
}
