import { z } from 'zod';
import { Session } from '../auth/schema';
import type { AppDeps } from '../deps';
import { ok, teamError } from '../openapi/responses';
import { declareAuditTrail } from './auditRoutes';
import * as examples from './examples';
import { createInviteHandler, listInvites, resendInvite, revokeInviteHandler } from './invites';
import { listMembers, patchMember, revokeMember } from './members';
import { acceptInviteHandler, lookupInvite } from './publicInvites';
import { Invite, LookupQuery, Member, TokenGrant } from './schema';
import { team } from './area';

const error = teamError;
const unauthorized = { 401: error('UNAUTHORIZED: no, invalid or revoked session, or an API key') };
const managerOnly = { ...unauthorized, 403: error('FORBIDDEN: not the Owner or an Admin, or an Admin acting beyond Members') };
const inviteBudget = {
  429: error(
    'RATE_LIMITED: over the invites sent per hour by this user (RATE_LIMIT_INVITES_PER_MEMBER) or this organisation (RATE_LIMIT_INVITES_PER_OPERATOR); see Retry-After',
  ),
};
const addressBudget = { 429: error('RATE_LIMITED: over RATE_LIMIT_INVITES_PUBLIC requests per minute from this address; see Retry-After') };

team.endpoint({
  method: 'get',
  path: '/operators/me/members',
  summary: "List the organisation's members (any member)",
  guards: ['session'],
  responses: { 200: ok(z.object({ members: z.array(Member), count: z.number().int() }), 'Members, Owner first', examples.members), ...unauthorized },
  ...listMembers,
});

team.endpoint({
  method: 'patch',
  path: '/operators/me/members/:id',
  summary: 'Change a member role and/or reinstate a suspended member (Owner, Admin)',
  guards: ['session', 'manager'],
  request: { body: { description: 'role (admin|member; admin only by the Owner) and/or status: active', example: examples.patchMemberBody } },
  responses: {
    200: ok(z.object({ id: z.uuid(), role: z.string(), status: z.string() }), 'Updated member', examples.memberUpdated),
    400: error('INVALID_INPUT: acting on yourself, bad role or status'),
    ...managerOnly,
    404: error('NOT_FOUND'),
  },
  ...patchMember,
});

team.endpoint({
  method: 'delete',
  path: '/operators/me/members/:id',
  summary: 'Revoke (suspend) a member: signed out at once, blocked from signing in (Owner, Admin)',
  guards: ['session', 'manager'],
  responses: {
    200: ok(z.object({ id: z.uuid(), status: z.literal('suspended') }), 'Suspended', examples.memberSuspended),
    400: error('INVALID_INPUT: revoking your own access'),
    ...unauthorized,
    403: error('OWNER_PROTECTED (the Owner) or FORBIDDEN'),
    404: error('NOT_FOUND'),
  },
  ...revokeMember,
});

team.endpoint({
  method: 'get',
  path: '/operators/me/invites',
  summary: 'List pending invites, expired ones flagged (Owner, Admin)',
  guards: ['session', 'manager'],
  responses: { 200: ok(z.object({ invites: z.array(Invite), count: z.number().int() }), 'Pending invites, newest first', examples.invites), ...managerOnly },
  ...listInvites,
});

team.endpoint({
  method: 'post',
  path: '/operators/me/invites',
  summary: 'Invite someone by email (Owner; Admin: role member only); a pending invite for the same email is revoked',
  guards: ['session', 'manager', 'userInvites', 'operatorInvites'],
  request: { body: { description: 'Email and role', example: examples.createInviteBody } },
  responses: {
    201: ok(
      TokenGrant.extend({ email: z.string(), role: z.enum(['admin', 'member']) }),
      'Created; the token and link are shown only now',
      examples.inviteCreated,
    ),
    400: error('INVALID_INPUT'),
    ...managerOnly,
    409: error('ALREADY_MEMBER: the email already belongs to a member of this organisation'),
    ...inviteBudget,
  },
  ...createInviteHandler,
});

team.endpoint({
  method: 'post',
  path: '/operators/me/invites/:id/resend',
  summary: 'Resend an invite: new token (the old link stops working) and a fresh 7-day expiry (Owner, Admin)',
  guards: ['session', 'manager', 'userInvites', 'operatorInvites'],
  responses: {
    200: ok(TokenGrant, 'Reissued', examples.inviteResent),
    ...managerOnly,
    404: error('NOT_FOUND: no pending invite with that id'),
    409: error('ALREADY_MEMBER: the email already belongs to a member of this organisation'),
    ...inviteBudget,
  },
  ...resendInvite,
});

team.endpoint({
  method: 'delete',
  path: '/operators/me/invites/:id',
  summary: 'Revoke a pending invite (Owner, Admin)',
  guards: ['session', 'manager'],
  responses: {
    200: ok(z.object({ id: z.uuid(), status: z.literal('revoked') }), 'Revoked', examples.inviteRevoked),
    ...managerOnly,
    404: error('NOT_FOUND: no pending invite with that id'),
  },
  ...revokeInviteHandler,
});

team.endpoint({
  method: 'get',
  path: '/invites/lookup',
  summary: 'Public: what an invite token is for; always 200 (429 only over the per-address rate limit)',
  security: 'none',
  guards: ['byAddress'],
  request: { query: LookupQuery },
  responses: {
    200: ok(
      z.union([
        z.object({ valid: z.literal(true), email: z.string(), role: z.enum(['admin', 'member']), orgName: z.string() }),
        z.object({ valid: z.literal(false), reason: z.enum(['invalid', 'expired', 'accepted', 'revoked']) }),
      ]),
      'Valid invite, or the reason it is not',
      examples.inviteLookup,
    ),
    ...addressBudget,
    500: error('INTERNAL_ERROR'),
  },
  ...lookupInvite,
});

team.endpoint({
  method: 'post',
  path: '/invites/accept',
  summary: 'Public: accept an invite, creating the login in the inviting organisation; returns a session',
  security: 'none',
  guards: ['byAddress'],
  request: { body: { description: 'Invite token, password (at least 8 characters) and name', example: examples.acceptInviteBody } },
  responses: {
    200: ok(Session, 'The new member session', examples.inviteAccepted),
    400: error('INVALID_INPUT or INVALID_TOKEN'),
    409: error('INVITE_USED or ALREADY_MEMBER'),
    410: error('INVITE_EXPIRED'),
    ...addressBudget,
  },
  ...acceptInviteHandler,
});

declareAuditTrail(team, ['session', 'manager']);

export const createPlatformApiRouter = (deps: AppDeps) => team.router(deps);
