import type { Context, Middleware } from 'koa';
import { constantTimeEqual, isWellFormedApiKey, sha256Hex, API_KEY_PREFIX } from '../../core/apiKeyToken';
import { looksLikeJwt, verifyAccessToken } from '../../core/sessionToken';
import { findApiKeyByHash } from '../../db/queries/apiKeys';
import { findMember, type MemberRole } from '../../db/queries/identity';
import type { AppDeps } from '../deps';
import { type AppError, AuthError, type AuthFailure } from '../errors';

export interface ApiKeyPrincipal {
  kind: 'apiKey';
  operatorId: string;
  keyId: string;
  mcpEnabled: boolean;
  mcpAutomationAllowlist: string[] | null;
}

export interface SessionPrincipal {
  kind: 'session';
  operatorId: string;
  userId: string;
  memberId: string;
  role: MemberRole;
}

export type Principal = ApiKeyPrincipal | SessionPrincipal;
export type PrincipalKind = Principal['kind'];

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
    mcpAutomationAllowlist: key.mcp_workflow_allowlist,
  };
}

async function principalFromSession(deps: AppDeps, token: string): Promise<SessionPrincipal> {
  const claims = await verifyAccessToken(token, deps.jwtSecret);
  if (!claims) throw new AuthError('invalid');
  const member = await deps.caches.members.get(`${claims.operatorId}:${claims.memberId}`, () => findMember(deps.db, claims.operatorId, claims.memberId));
  if (!member || member.user_id !== claims.userId) throw new AuthError('invalid');
  if (member.status !== 'active' || member.session_version !== claims.sessionVersion) throw new AuthError('revoked');
  return { kind: 'session', operatorId: member.operator_id, userId: member.user_id, memberId: member.id, role: member.role };
}

/**
 * Resolves the caller from `Authorization: Bearer …`: a `svc_live_` API key (looked up by SHA-256
 * hash) or a session JWT (checked against the member's current status and session version).
 * Throws `AuthError` with the reason, so each area can answer with its own codes.
 */
export async function resolvePrincipal(deps: AppDeps, header: string | undefined, accept: readonly PrincipalKind[]): Promise<Principal> {
  const token = bearerToken(header);
  if (token === null) throw new AuthError('missing');
  if (token === 'malformed') throw new AuthError('invalid_format');
  if (token.startsWith(API_KEY_PREFIX)) {
    if (!accept.includes('apiKey')) throw new AuthError('session_required');
    return principalFromApiKey(deps, token);
  }
  if (!looksLikeJwt(token)) throw new AuthError(accept.includes('apiKey') ? 'invalid_format' : 'invalid');
  if (!accept.includes('session')) throw new AuthError('api_key_required');
  return principalFromSession(deps, token);
}

/**
 * Authenticates the request and puts the principal on `ctx.state.auth`; failures become the area's
 * error through `onFailure`.
 *
 * @example router.use(authenticate(deps, { accept: ['apiKey'], onFailure: () => new AppError(401, 'UNAUTHORIZED', 'Invalid API key') }))
 */
export function authenticate(deps: AppDeps, options: { accept: readonly PrincipalKind[]; onFailure: (reason: AuthFailure) => AppError }): Middleware {
  return async (ctx: Context, next) => {
    try {
      ctx.state.auth = await resolvePrincipal(deps, ctx.get('authorization') || undefined, options.accept);
    } catch (error) {
      if (error instanceof AuthError) throw options.onFailure(error.reason);
      throw error;
    }
    await next();
  };
}

export function principalOf(ctx: Context): Principal {
  const principal = ctx.state.auth as Principal | undefined;
  if (!principal) throw new Error('route used principalOf without authenticate');
  return principal;
}

/** The organisation the request acts for: the one way a handler reads the operator id that scopes its queries. */
export const operatorOf = (ctx: Context): string => principalOf(ctx).operatorId;
