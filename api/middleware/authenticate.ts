import type { Context, Middleware } from 'koa';
import { constantTimeEqual, isWellFormedApiKey, sha256Hex, API_KEY_PREFIX } from '../../core/apiKeyToken';
import { DASHBOARD_CREDENTIAL_PREFIX, dashboardScopeOf, scopeAllows, verifyDashboardCredential } from '../../core/dashboardCredential';
import { looksLikeJwt, verifyAccessToken } from '../../core/sessionToken';
import { findApiKeyByHash } from '../../db/queries/apiKeys';
import { findMember, type MemberRole, type MemberRow } from '../../db/queries/identity';
import { isSessionEnded } from '../../db/queries/refreshTokens';
import type { AppDeps } from '../deps';
import { AppError, AuthError, type AuthFailure } from '../errors';

export interface ApiKeyPrincipal {
  kind: 'apiKey';
  operatorId: string;
  keyId: string;
  mcpEnabled: boolean;
  mcpAutomationAllowlist: string[] | null;
}

/** A signed-in member, whichever of the session's credentials the request presented. */
export interface SessionPrincipal {
  kind: 'session';
  operatorId: string;
  userId: string;
  memberId: string;
  role: MemberRole;
  /** The sign-in; absent for access tokens issued before sessions had ids. */
  sessionId?: string;
  /** The session's access token, or the dashboard credential issued to it (accepted only where the other is not). */
  credential: 'accessToken' | 'dashboardCredential';
}

export type Principal = ApiKeyPrincipal | SessionPrincipal;
/** What an area accepts: API keys, session access tokens, dashboard credentials. */
export type CredentialKind = 'apiKey' | 'session' | 'dashboardCredential';

/** 401 texts for a dashboard credential that failed where API keys are also accepted (the codes stay the area's). */
export const DASHBOARD_FAILURE_TEXT: Record<AuthFailure, string> = {
  missing: 'Authorization header is required',
  invalid_format: 'Invalid or expired dashboard credential',
  invalid: 'Invalid or expired dashboard credential',
  revoked: 'The session of this dashboard credential has ended',
  session_required: 'Invalid or expired dashboard credential',
  api_key_required: 'Invalid or expired dashboard credential',
};

/** Extracts the bearer token; `null` when there is no Authorization header at all. */
export function bearerToken(header: string | undefined): string | null | 'malformed' {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? 'malformed';
}

async function principalFromApiKey(deps: AppDeps, token: string): Promise<ApiKeyPrincipal> {
  if (!isWellFormedApiKey(token)) throw new AuthError('invalid_format');
  const hash = sha256Hex(token);
  const key = await deps.caches.apiKeys.get(hash, () => findApiKeyByHash(deps.db, hash));
  if (!key || !constantTimeEqual(key.key_hash, hash)) throw new AuthError('invalid');
  if (key.revoked) throw new AuthError('revoked');
  deps.keyUsage.record(key.id);
  return {
    kind: 'apiKey',
    operatorId: key.operator_id,
    keyId: key.id,
    mcpEnabled: key.mcp_enabled,
    mcpAutomationAllowlist: key.mcp_automation_allowlist,
  };
}

/**
 * The member a session credential names, as the cache has them now: unknown or another user's is `invalid`; a
 * suspended member or an older session version (suspension, global logout) is `revoked`.
 */
async function liveMember(
  deps: AppDeps,
  claims: { operatorId: string; memberId: string; userId: string; sessionVersion: number },
  credential?: 'dashboardCredential',
): Promise<MemberRow> {
  const member = await deps.caches.members.get(`${claims.operatorId}:${claims.memberId}`, () => findMember(deps.db, claims.operatorId, claims.memberId));
  if (!member || member.user_id !== claims.userId) throw new AuthError('invalid', credential);
  if (member.status !== 'active' || member.session_version !== claims.sessionVersion) throw new AuthError('revoked', credential);
  return member;
}

async function principalFromSession(deps: AppDeps, token: string): Promise<SessionPrincipal> {
  const claims = await verifyAccessToken(token, deps.jwtSecret);
  if (!claims) throw new AuthError('invalid');
  const member = await liveMember(deps, claims);
  return {
    kind: 'session',
    operatorId: member.operator_id,
    userId: member.user_id,
    memberId: member.id,
    role: member.role,
    ...(claims.sessionId ? { sessionId: claims.sessionId } : {}),
    credential: 'accessToken',
  };
}

/**
 * A dashboard credential stands for its session: the live member (status, session version, role) and a sign-in
 * that has not ended — asked of the database on every use, so a logout ends it at once.
 */
async function principalFromDashboardCredential(deps: AppDeps, token: string): Promise<SessionPrincipal> {
  const claims = await verifyDashboardCredential(token, deps.jwtSecret);
  if (!claims) throw new AuthError('invalid', 'dashboardCredential');
  const member = await liveMember(deps, claims, 'dashboardCredential');
  if (await isSessionEnded(deps.db, member.operator_id, member.id, claims.sessionId)) throw new AuthError('revoked', 'dashboardCredential');
  return {
    kind: 'session',
    operatorId: member.operator_id,
    userId: member.user_id,
    memberId: member.id,
    role: member.role,
    sessionId: claims.sessionId,
    credential: 'dashboardCredential',
  };
}

/**
 * Resolves the caller from `Authorization: Bearer …`: a `svc_live_` API key (looked up by SHA-256
 * hash), a `dsh_` dashboard credential or a session JWT (each checked against the member's current
 * status and session version). Throws `AuthError` with the reason, so each area can answer with its own codes.
 * A dashboard credential where none is accepted fails as a session token would where keys are wanted.
 */
export async function resolvePrincipal(deps: AppDeps, header: string | undefined, accept: readonly CredentialKind[]): Promise<Principal> {
  const token = bearerToken(header);
  if (token === null) throw new AuthError('missing');
  if (token === 'malformed') throw new AuthError('invalid_format');
  if (token.startsWith(API_KEY_PREFIX)) {
    if (!accept.includes('apiKey')) throw new AuthError('session_required');
    return principalFromApiKey(deps, token);
  }
  if (token.startsWith(DASHBOARD_CREDENTIAL_PREFIX)) {
    if (!accept.includes('dashboardCredential')) throw new AuthError(accept.includes('session') ? 'invalid' : 'api_key_required');
    return principalFromDashboardCredential(deps, token);
  }
  if (!looksLikeJwt(token)) throw new AuthError(accept.includes('apiKey') ? 'invalid_format' : 'invalid');
  if (!accept.includes('session')) throw new AuthError('api_key_required');
  return principalFromSession(deps, token);
}

/**
 * Authenticates the request and puts the principal on `ctx.state.auth`; failures become the area's
 * error through `onFailure` (told which credential failed when it was a dashboard credential). A dashboard
 * credential only does what its member's role may: a Member's reads (403 `FORBIDDEN` for any other method).
 *
 * @example router.use(authenticate(deps, { accept: ['apiKey'], onFailure: () => new AppError(401, 'UNAUTHORIZED', 'Invalid API key') }))
 */
export function authenticate(
  deps: AppDeps,
  options: { accept: readonly CredentialKind[]; onFailure: (reason: AuthFailure, credential?: 'dashboardCredential') => AppError },
): Middleware {
  return async (ctx: Context, next) => {
    let principal: Principal;
    try {
      principal = await resolvePrincipal(deps, ctx.get('authorization') || undefined, options.accept);
    } catch (error) {
      if (error instanceof AuthError) throw options.onFailure(error.reason, error.credential);
      throw error;
    }
    ctx.state.auth = principal;
    if (principal.kind === 'session' && principal.credential === 'dashboardCredential' && !scopeAllows(dashboardScopeOf(principal.role), ctx.method)) {
      throw new AppError(403, 'FORBIDDEN', 'A Member may read data in the dashboard; only the Owner or an Admin can change data or call suppliers');
    }
    await next();
  };
}

export function principalOf(ctx: Context): Principal {
  const principal = ctx.state.auth as Principal | undefined;
  if (!principal) throw new Error('route used principalOf without authenticate');
  return principal;
}

/** The caller of an area that accepts sessions only (its authentication refused anything else). */
export function sessionPrincipalOf(ctx: Context): SessionPrincipal {
  const principal = principalOf(ctx);
  if (principal.kind !== 'session') throw new Error('route of a session-only area reached without a session');
  return principal;
}

/** The organisation the request acts for: the one way a handler reads the operator id that scopes its queries. */
export const operatorOf = (ctx: Context): string => principalOf(ctx).operatorId;
