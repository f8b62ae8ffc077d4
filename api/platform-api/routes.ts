import Router from '@koa/router';
import type { Middleware } from 'koa';
import { canManageTeam } from '../../core/teamRules';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { authenticate } from '../middleware/authenticate';
import { validate } from '../middleware/validate';
import { AUTH_TEXT, invalidInput, sessionOf } from './errors';
import { createInviteHandler, listInvites, resendInvite, revokeInviteHandler } from './invites';
import { listMembers, patchMember, revokeMember } from './members';
import { acceptInviteHandler, lookupInvite } from './publicInvites';
import { AcceptInviteBody, CreateInviteBody, IdParams, PatchMemberBody } from './schema';

/** Owner or Admin only, checked before the body is read: a Member learns nothing but 403. */
const requireTeamManager: Middleware = async (ctx, next) => {
  if (!canManageTeam(sessionOf(ctx).role)) throw new AppError(403, 'FORBIDDEN', 'Only the Owner or an Admin can manage the team');
  await next();
};

/**
 * Team management (spec 4.5, 7.5): members and invites behind a session JWT (an API key is 401), plus
 * the public invite lookup and accept. Errors are `{ success: false, code, error }`.
 */
export function createPlatformApiRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/platform-api' });
  const session = authenticate(deps, { accept: ['session'], onFailure: (reason) => new AppError(401, 'UNAUTHORIZED', AUTH_TEXT[reason]) });
  const manager = [session, requireTeamManager];
  const input = (schemas: Parameters<typeof validate>[0]) => validate(schemas, invalidInput);

  router.get('/operators/me/members', session, (ctx) => listMembers(deps, ctx));
  router.patch('/operators/me/members/:id', ...manager, input({ params: IdParams, body: PatchMemberBody }), (ctx) => patchMember(deps, ctx));
  router.delete('/operators/me/members/:id', ...manager, input({ params: IdParams }), (ctx) => revokeMember(deps, ctx));

  router.get('/operators/me/invites', ...manager, (ctx) => listInvites(deps, ctx));
  router.post('/operators/me/invites', ...manager, input({ body: CreateInviteBody }), (ctx) => createInviteHandler(deps, ctx));
  router.post('/operators/me/invites/:id/resend', ...manager, input({ params: IdParams }), (ctx) => resendInvite(deps, ctx));
  router.delete('/operators/me/invites/:id', ...manager, input({ params: IdParams }), (ctx) => revokeInviteHandler(deps, ctx));

  router.get('/invites/lookup', (ctx) => lookupInvite(deps, ctx));
  router.post('/invites/accept', input({ body: AcceptInviteBody }), (ctx) => acceptInviteHandler(deps, ctx));
  return router;
}
