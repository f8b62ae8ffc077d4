import type { Context } from 'koa';
import { ACCEPTED_PROTOCOL_VERSIONS, isValidSessionId } from '../../core/mcpJsonRpc';
import type { AppDeps } from '../deps';
import { AppError, AuthError, type AuthFailure } from '../errors';
import { resolvePrincipal, type ApiKeyPrincipal } from '../middleware/authenticate';

/** Spec 5 rule 4 and 7.6: each authentication failure as its MCP service code and HTTP status. */
function mcpAuthError(reason: AuthFailure): AppError {
  switch (reason) {
    case 'missing':
      return new AppError(401, 'AUTH_MISSING', 'Authorization header is required');
    case 'revoked':
      return new AppError(401, 'AUTH_REVOKED', 'API key has been revoked');
    case 'invalid':
      return new AppError(401, 'AUTH_INVALID', 'Invalid API key');
    default:
      // Not `Bearer <token>`, not a `svc_live_` key, or a session JWT: MCP takes API keys only.
      return new AppError(401, 'AUTH_INVALID_FORMAT', 'Authorization must be Bearer svc_live_<64 hex characters>');
  }
}

/**
 * Authenticates an MCP call in the order of spec 5 rule 4: AUTH_MISSING, AUTH_INVALID_FORMAT, AUTH_INVALID,
 * AUTH_REVOKED, then MCP_NOT_ENABLED (403), then AUTH_OPERATOR_MISMATCH (403) on the legacy
 * `/mcp-server/<operator_id>` path. The principal is put on `ctx.state.auth` for rate limits and the access log.
 *
 * @example const principal = await authenticateMcp(deps, ctx, ctx.params.operatorId)
 */
export async function authenticateMcp(deps: AppDeps, ctx: Context, pathOperatorId?: string): Promise<ApiKeyPrincipal> {
  let principal;
  try {
    principal = await resolvePrincipal(deps, ctx.get('authorization') || undefined, ['apiKey']);
  } catch (error) {
    if (error instanceof AuthError) throw mcpAuthError(error.reason);
    throw error;
  }
  if (principal.kind !== 'apiKey') throw mcpAuthError('invalid_format');
  ctx.state.auth = principal;
  if (!principal.mcpEnabled) throw new AppError(403, 'MCP_NOT_ENABLED', 'MCP is not enabled for this API key');
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
