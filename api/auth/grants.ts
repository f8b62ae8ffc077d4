import type { Context } from 'koa';
import { verifyAgainstDummy, verifyPassword } from '../../core/password';
import { findLoginByEmail, findMember, findUser } from '../../db/queries/identity';
import { rotateRefreshToken } from '../../commands/sessions';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { PasswordGrantBody, RefreshGrantBody, TokenQuery } from './schema';
import { issueSession } from './session';
import { auth } from './area';

const invalidGrant = (description: string) => new AppError(400, 'invalid_grant', description);

/**
 * `POST /auth/v1/token`: the grant type from the query (supabase-js) or, failing that, the body. The body (JSON or an
 * OAuth form post) is read raw: each grant answers its own `invalid_request` text.
 */
export const tokenHandler = auth.handler({ input: { query: TokenQuery }, raw: ['body'] }, async ({ deps, ctx, input: { query }, raw }) => {
  const grant = query.grant_type ?? (raw.body as { grant_type?: unknown } | undefined)?.grant_type;
  if (grant === 'password') return passwordGrant(deps, ctx, raw.body);
  if (grant === 'refresh_token') return refreshGrant(deps, ctx, raw.body);
  throw new AppError(400, 'unsupported_grant_type', 'grant_type must be password or refresh_token');
});

/** `grant_type=password`: an unknown email costs the same time as a wrong password. */
async function passwordGrant(deps: AppDeps, ctx: Context, body: unknown): Promise<void> {
  const parsed = PasswordGrantBody.safeParse(body);
  if (!parsed.success) throw new AppError(400, 'invalid_request', 'email and password are required');
  const login = await findLoginByEmail(deps.db, parsed.data.email.trim());
  const valid = login ? await verifyPassword(parsed.data.password, login.user.password_hash) : await verifyAgainstDummy(parsed.data.password);
  if (!login || !valid) throw invalidGrant('Invalid login credentials');
  if (login.member.status !== 'active') throw invalidGrant('This account has been suspended');
  ctx.body = await issueSession(deps, login.user, login.member);
}

/**
 * `grant_type=refresh_token`: single use; the new tokens stay in the same session (its id carries over). A token
 * that was already rotated ends its whole session family, and the answer stays the same `invalid_grant`.
 */
async function refreshGrant(deps: AppDeps, ctx: Context, body: unknown): Promise<void> {
  const parsed = RefreshGrantBody.safeParse(body);
  if (!parsed.success) throw new AppError(400, 'invalid_request', 'refresh_token is required');
  const rotation = await rotateRefreshToken(deps, parsed.data.refresh_token);
  if (rotation.kind === 'refused') {
    const { reused } = rotation;
    if (reused) {
      ctx.state.log.warn(
        { operatorId: reused.operator_id, memberId: reused.member_id, sessionId: reused.session_id, revoked: reused.revoked },
        'rotated refresh token presented again; its session family is revoked',
      );
    }
    throw invalidGrant('Invalid or expired refresh token');
  }
  const { token } = rotation;
  const member = await findMember(deps.db, token.operator_id, token.member_id);
  if (!member || member.status !== 'active' || member.session_version !== token.session_version) {
    throw invalidGrant('Invalid or expired refresh token');
  }
  const user = await findUser(deps.db, member.operator_id, member.user_id);
  if (!user) throw invalidGrant('Invalid or expired refresh token');
  ctx.body = await issueSession(deps, user, member, token.session_id ?? undefined);
}
