import { dashboardScopeOf, signDashboardCredential } from '../../core/dashboardCredential';
import { findMember } from '../../db/queries/identity';
import { isSessionEnded } from '../../db/queries/refreshTokens';
import { AppError } from '../errors';
import { AUTH_FAILURE_TEXT } from '../middleware/requireManager';
import { sessionOf } from './account';
import { auth } from './area';

/**
 * `POST /auth/v1/dashboard-credential`: the signed-in dashboard's credential for the data API and `/gateway`,
 * which take API keys and never a session access token. It is bound to the caller's sign-in (ended with it), lives
 * `DASHBOARD_CREDENTIAL_TTL_SECONDS` and is asked for again before then; nothing is stored, and it is no API key
 * (not listed, not counted, no `lastUsedAt`). A session that was signed out locally, whose access token is still
 * valid for its last minutes, gets none.
 */
export const dashboardCredentialHandler = auth.handler({}, async ({ deps, ctx }) => {
  const { principal, sessionId } = await sessionOf(deps, ctx);
  if (!sessionId || (await isSessionEnded(deps.db, principal.operatorId, principal.memberId, sessionId))) {
    throw new AppError(401, 'invalid_token', AUTH_FAILURE_TEXT.revoked);
  }
  const { operatorId, memberId } = principal;
  const member = await deps.caches.members.get(`${operatorId}:${memberId}`, () => findMember(deps.db, operatorId, memberId));
  if (!member) throw new AppError(401, 'invalid_token', AUTH_FAILURE_TEXT.invalid);
  const ttl = deps.config.DASHBOARD_CREDENTIAL_TTL_SECONDS;
  const credential = await signDashboardCredential(
    { userId: member.user_id, operatorId: member.operator_id, memberId: member.id, sessionId, sessionVersion: member.session_version },
    deps.jwtSecret,
    ttl,
  );
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { credential, token_type: 'bearer', expires_in: ttl, scope: dashboardScopeOf(member.role) };
});
