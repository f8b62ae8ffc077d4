import Router from '@koa/router';
import type { Context } from 'koa';
import { sha256Hex } from '../../core/apiKeyToken';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../core/password';
import { createOrganisation, EmailTakenError, findLoginByEmail, findMember, findUser } from '../../db/queries/identity';
import { consumeRefreshToken } from '../../db/queries/refreshTokens';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { rateLimit } from '../middleware/rateLimit';
import { inputOf, validate } from '../middleware/validate';
import { PasswordGrantBody, RefreshGrantBody, SignupBody, TokenQuery } from './schema';
import { issueSession } from './session';

const invalidGrant = (description: string) => new AppError(400, 'invalid_grant', description);
const invalidRequest = (problems: { problems: Array<{ field: string; message: string }> }) =>
  new AppError(400, 'invalid_request', problems.problems.map((p) => `${p.field}: ${p.message}`).join('; '));

async function passwordGrant(deps: AppDeps, ctx: Context): Promise<void> {
  const parsed = PasswordGrantBody.safeParse(ctx.request.body);
  if (!parsed.success) throw new AppError(400, 'invalid_request', 'email and password are required');
  const login = await findLoginByEmail(deps.db, parsed.data.email.trim());
  const valid = login ? await verifyPassword(parsed.data.password, login.user.password_hash) : await verifyAgainstDummy(parsed.data.password);
  if (!login || !valid) throw invalidGrant('Invalid login credentials');
  if (login.member.status !== 'active') throw invalidGrant('This account has been suspended');
  ctx.body = await issueSession(deps, login.user, login.member);
}

async function refreshGrant(deps: AppDeps, ctx: Context): Promise<void> {
  const parsed = RefreshGrantBody.safeParse(ctx.request.body);
  if (!parsed.success) throw new AppError(400, 'invalid_request', 'refresh_token is required');
  const token = await consumeRefreshToken(deps.db, sha256Hex(parsed.data.refresh_token));
  if (!token) throw invalidGrant('Invalid or expired refresh token');
  const member = await findMember(deps.db, token.operator_id, token.member_id);
  if (!member || member.status !== 'active' || member.session_version !== token.session_version) {
    throw invalidGrant('Invalid or expired refresh token');
  }
  const user = await findUser(deps.db, member.operator_id, member.user_id);
  if (!user) throw invalidGrant('Invalid or expired refresh token');
  ctx.body = await issueSession(deps, user, member);
}

/** Identity: signup creates an organisation and its Owner; token issues sessions (OAuth-style errors). */
export function createAuthRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/auth/v1' });
  const limitByAddress = rateLimit(deps.rateLimits, 'auth', (ctx) => ctx.ip);

  router.post('/signup', limitByAddress, validate({ body: SignupBody }), async (ctx) => {
    const { body } = inputOf(ctx, { body: SignupBody });
    let created;
    try {
      created = await createOrganisation(deps.db, {
        organisationName: body.organisationName,
        email: body.email,
        passwordHash: await hashPassword(body.password),
        displayName: body.email.split('@')[0] ?? body.email,
      });
    } catch (error) {
      if (error instanceof EmailTakenError) throw new AppError(409, 'EMAIL_TAKEN', 'An account with this email already exists');
      throw error;
    }
    const session = await issueSession(deps, created.user, created.member);
    ctx.status = 201;
    ctx.body = {
      success: true,
      data: {
        user: { id: created.user.id, email: created.user.email },
        operator: { id: created.operator.id, name: created.operator.name },
        session,
      },
    };
  });

  router.post('/token', limitByAddress, validate({ query: TokenQuery }, invalidRequest), async (ctx) => {
    const grant = inputOf(ctx, { query: TokenQuery }).query.grant_type ?? (ctx.request.body as { grant_type?: unknown } | undefined)?.grant_type;
    if (grant === 'password') return passwordGrant(deps, ctx);
    if (grant === 'refresh_token') return refreshGrant(deps, ctx);
    throw new AppError(400, 'unsupported_grant_type', 'grant_type must be password or refresh_token');
  });

  return router;
}
