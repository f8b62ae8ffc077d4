import Router from '@koa/router';
import { hashPassword } from '../../core/password';
import { createOrganisation, EmailTakenError } from '../../db/queries/identity';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { rateLimit } from '../middleware/rateLimit';
import { inputOf, validate } from '../middleware/validate';
import { getUserHandler, logoutHandler } from './account';
import { passwordGrant, refreshGrant } from './grants';
import { SignupBody, TokenQuery } from './schema';
import { issueSession } from './session';

const invalidRequest = (problems: { problems: Array<{ field: string; message: string }> }) =>
  new AppError(400, 'invalid_request', problems.problems.map((p) => `${p.field}: ${p.message}`).join('; '));

/**
 * Identity: signup creates an organisation and its Owner; token issues sessions; user and logout are
 * what supabase-js `getUser` and `signOut` call (OAuth-style errors except on signup).
 */
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
      ...session,
    };
  });

  router.post('/token', limitByAddress, validate({ query: TokenQuery }, invalidRequest), async (ctx) => {
    const grant = inputOf(ctx, { query: TokenQuery }).query.grant_type ?? (ctx.request.body as { grant_type?: unknown } | undefined)?.grant_type;
    if (grant === 'password') return passwordGrant(deps, ctx);
    if (grant === 'refresh_token') return refreshGrant(deps, ctx);
    throw new AppError(400, 'unsupported_grant_type', 'grant_type must be password or refresh_token');
  });

  router.get('/user', (ctx) => getUserHandler(deps, ctx));
  router.post('/logout', (ctx) => logoutHandler(deps, ctx));

  return router;
}
