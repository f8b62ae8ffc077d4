import type { Middleware } from 'koa';
import { canManageTeam } from '../../core/teamRules';
import { defineArea } from '../endpoint';
import { AppError } from '../errors';
import { authenticate } from '../middleware/authenticate';
import { rateLimit } from '../middleware/rateLimit';
import { bearerSession } from '../openapi/registry';
import { AUTH_TEXT, invalidInput, sessionOf } from './errors';

/** Owner or Admin only, checked before the body is read: a Member learns nothing but 403. */
const requireTeamManager: Middleware = async (ctx, next) => {
  if (!canManageTeam(sessionOf(ctx).role)) throw new AppError(403, 'FORBIDDEN', 'Only the Owner or an Admin can manage the team');
  await next();
};

/**
 * Team management (spec 4.5, 7.5): members and invites behind a session JWT (an API key is 401), plus
 * the public invite lookup and accept. Errors are `{ success: false, code, error }`. Every invite sent (created
 * or resent) emails an address the caller chose, so it counts against the acting user's hourly budget, then the
 * organisation's (in that order, so one user over budget spends none of the others'); the public endpoints count
 * per client address.
 */
export const team = defineArea({
  prefix: '/platform-api',
  errorFormat: 'team',
  security: [{ [bearerSession.name]: [] }],
  guards: (deps) => ({
    session: authenticate(deps, { accept: ['session'], onFailure: (reason) => new AppError(401, 'UNAUTHORIZED', AUTH_TEXT[reason]) }),
    manager: requireTeamManager,
    userInvites: rateLimit(deps.rateLimits, 'invites:member', (ctx) => sessionOf(ctx).userId),
    operatorInvites: rateLimit(deps.rateLimits, 'invites:operator', (ctx) => sessionOf(ctx).operatorId),
    byAddress: rateLimit(deps.rateLimits, 'invites:public', (ctx) => ctx.ip),
  }),
  inputError: invalidInput,
  principal: sessionOf,
});
