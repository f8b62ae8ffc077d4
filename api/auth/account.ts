import type { Context } from 'koa';
import { signOut } from '../../commands/sessions';
import { findProfile } from '../../db/queries/identity';
import type { AppDeps } from '../deps';
import { AppError, AuthError } from '../errors';
import { resolvePrincipal, type SessionPrincipal } from '../middleware/authenticate';
import { AUTH_FAILURE_TEXT } from '../middleware/requireManager';
import { authUserRecord } from './presenters';
import { LogoutQuery } from './schema';
import { auth } from './area';

/** The caller's live session (status and session version checked); every failure is RFC 6750's 401 `invalid_token`. */
export async function sessionOf(deps: AppDeps, ctx: Context): Promise<{ principal: SessionPrincipal; sessionId: string | undefined }> {
  try {
    const principal = await resolvePrincipal(deps, ctx.get('authorization') || undefined, ['session']);
    if (principal.kind !== 'session') throw new AuthError('session_required');
    return { principal, sessionId: principal.sessionId };
  } catch (error) {
    if (error instanceof AuthError) throw new AppError(401, 'invalid_token', AUTH_FAILURE_TEXT[error.reason]);
    throw error;
  }
}

/** `GET /auth/v1/user` (supabase-js `auth.getUser()`): the signed-in user, organisation and role. */
export const getUserHandler = auth.handler({}, async ({ deps, ctx }) => {
  const { principal } = await sessionOf(deps, ctx);
  const profile = await findProfile(deps.db, principal.operatorId, principal.memberId);
  if (!profile) throw new AppError(401, 'invalid_token', AUTH_FAILURE_TEXT.invalid);
  ctx.body = authUserRecord(profile);
});

/**
 * `POST /auth/v1/logout?scope=global|local|others` (supabase-js `auth.signOut()`, whose default is
 * `global`). `global` ends every session of the member at once, access tokens included (the session
 * version moves on); `local` revokes this sign-in's refresh token and `others` every other one, whose
 * access tokens then lapse within `JWT_ACCESS_TTL_SECONDS`. A token from before sessions had ids cannot
 * name its own sign-in, so `local` and `others` revoke all refresh tokens for it. The query is read raw, after the
 * session: a bad session is 401 whatever the scope.
 */
export const logoutHandler = auth.handler({ raw: ['query'] }, async ({ deps, ctx, raw }) => {
  const { principal, sessionId } = await sessionOf(deps, ctx);
  const parsed = LogoutQuery.safeParse(raw.query);
  if (!parsed.success) throw new AppError(400, 'invalid_request', 'scope must be global, local or others');
  const { scope } = parsed.data;
  await signOut(deps, { operatorId: principal.operatorId, memberId: principal.memberId, sessionId, scope });
  if (scope === 'global') deps.caches.members.clear();
  ctx.status = 204;
});
