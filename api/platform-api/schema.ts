import { z } from 'zod';
import { bearerSession, jsonContent, registry, TeamError } from '../openapi/registry';
import { Session } from '../auth/schema';
import * as examples from './examples';

const asObject = { error: 'the body must be a JSON object' };
const role = z.enum(['admin', 'member'], { error: (issue) => (issue.input === undefined ? 'is required' : 'must be admin or member') });

export const CreateInviteBody = z.object({
  email: z.email({ error: 'must be a valid email address' }).max(254).transform((email) => email.toLowerCase()),
  role,
}, asObject);

export const PatchMemberBody = z
  .object({
    role: role.optional(),
    status: z.literal('active', { error: 'can only be active (reinstate); use DELETE to revoke' }).optional(),
  }, asObject)
  .refine((body) => body.role !== undefined || body.status !== undefined, { error: 'role or status is required' });

export const AcceptInviteBody = z.object({
  token: z.string().min(1).max(512),
  password: z.string().min(8, 'must be at least 8 characters').max(1024),
  first_name: z.string().trim().min(1, 'must not be empty').max(100),
  last_name: z.string().trim().min(1, 'must not be empty').max(100),
}, asObject);

export const IdParams = z.object({ id: z.string() });
export const LookupQuery = z.object({ token: z.string().optional().describe('The raw invite token (inv_…)') });

const Member = registry.register(
  'Member',
  z.object({
    id: z.uuid(),
    authUserId: z.uuid(),
    email: z.string(),
    displayName: z.string(),
    role: z.enum(['owner', 'admin', 'member']),
    status: z.enum(['active', 'suspended']),
    createdAt: z.string(),
    isSelf: z.boolean(),
    isOwner: z.boolean(),
  }),
);

const Invite = registry.register(
  'Invite',
  z.object({
    id: z.uuid(),
    email: z.string(),
    role: z.enum(['admin', 'member']),
    status: z.enum(['pending', 'revoked']),
    expiresAt: z.string(),
    expired: z.boolean(),
    createdAt: z.string(),
  }),
);

const ok = (data: z.ZodType, description: string, example: unknown) => jsonContent(z.object({ success: z.literal(true), data }), description, example);
const error = (description: string) => jsonContent(TeamError, description);
const security = [{ [bearerSession.name]: [] }];
const unauthorized = { 401: error('UNAUTHORIZED: no, invalid or revoked session, or an API key') };
const managerOnly = { ...unauthorized, 403: error('FORBIDDEN: not the Owner or an Admin, or an Admin acting beyond Members') };
const TokenGrant = z.object({ id: z.uuid(), expiresAt: z.string(), acceptUrl: z.string(), token: z.string() });

registry.registerPath({
  method: 'get',
  path: '/platform-api/operators/me/members',
  summary: "List the organisation's members (any member)",
  security,
  responses: { 200: ok(z.object({ members: z.array(Member), count: z.number().int() }), 'Members, Owner first', examples.members), ...unauthorized },
});

registry.registerPath({
  method: 'patch',
  path: '/platform-api/operators/me/members/{id}',
  summary: 'Change a member role and/or reinstate a suspended member (Owner, Admin)',
  security,
  request: { params: IdParams, body: jsonContent(PatchMemberBody, 'role (admin|member; admin only by the Owner) and/or status: active', examples.patchMemberBody) },
  responses: {
    200: ok(z.object({ id: z.uuid(), role: z.string(), status: z.string() }), 'Updated member', examples.memberUpdated),
    400: error('INVALID_INPUT: acting on yourself, bad role or status'),
    ...managerOnly,
    404: error('NOT_FOUND'),
  },
});

registry.registerPath({
  method: 'delete',
  path: '/platform-api/operators/me/members/{id}',
  summary: 'Revoke (suspend) a member: signed out at once, blocked from signing in (Owner, Admin)',
  security,
  request: { params: IdParams },
  responses: {
    200: ok(z.object({ id: z.uuid(), status: z.literal('suspended') }), 'Suspended', examples.memberSuspended),
    400: error('INVALID_INPUT: revoking your own access'),
    ...unauthorized,
    403: error('OWNER_PROTECTED (the Owner) or FORBIDDEN'),
    404: error('NOT_FOUND'),
  },
});

registry.registerPath({
  method: 'get',
  path: '/platform-api/operators/me/invites',
  summary: 'List pending invites, expired ones flagged (Owner, Admin)',
  security,
  responses: { 200: ok(z.object({ invites: z.array(Invite), count: z.number().int() }), 'Pending invites, newest first', examples.invites), ...managerOnly },
});

registry.registerPath({
  method: 'post',
  path: '/platform-api/operators/me/invites',
  summary: 'Invite someone by email (Owner; Admin: role member only); a pending invite for the same email is revoked',
  security,
  request: { body: jsonContent(CreateInviteBody, 'Email and role', examples.createInviteBody) },
  responses: {
    201: ok(TokenGrant.extend({ email: z.string(), role: z.enum(['admin', 'member']) }), 'Created; the token and link are shown only now', examples.inviteCreated),
    400: error('INVALID_INPUT'),
    ...managerOnly,
    409: error('ALREADY_MEMBER: the email already has an account'),
  },
});

registry.registerPath({
  method: 'post',
  path: '/platform-api/operators/me/invites/{id}/resend',
  summary: 'Resend an invite: new token (the old link stops working) and a fresh 7-day expiry (Owner, Admin)',
  security,
  request: { params: IdParams },
  responses: { 200: ok(TokenGrant, 'Reissued', examples.inviteResent), ...managerOnly, 404: error('NOT_FOUND: no pending invite with that id'), 409: error('ALREADY_MEMBER') },
});

registry.registerPath({
  method: 'delete',
  path: '/platform-api/operators/me/invites/{id}',
  summary: 'Revoke a pending invite (Owner, Admin)',
  security,
  request: { params: IdParams },
  responses: { 200: ok(z.object({ id: z.uuid(), status: z.literal('revoked') }), 'Revoked', examples.inviteRevoked), ...managerOnly, 404: error('NOT_FOUND: no pending invite with that id') },
});

registry.registerPath({
  method: 'get',
  path: '/platform-api/invites/lookup',
  summary: 'Public: what an invite token is for; always 200',
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
  },
});

registry.registerPath({
  method: 'post',
  path: '/platform-api/invites/accept',
  summary: 'Public: accept an invite, creating the login in the inviting organisation; returns a session',
  request: { body: jsonContent(AcceptInviteBody, 'Invite token, password (at least 8 characters) and name', examples.acceptInviteBody) },
  responses: {
    200: ok(Session, 'The new member session', examples.inviteAccepted),
    400: error('INVALID_INPUT or INVALID_TOKEN'),
    409: error('INVITE_USED or ALREADY_MEMBER'),
    410: error('INVITE_EXPIRED'),
  },
});
