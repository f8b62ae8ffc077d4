import { acceptInvite } from '../../commands/team/acceptInvite';
import { sha256Hex } from '../../core/apiKeyToken';
import { inviteState, isWellFormedInviteToken } from '../../core/invites';
import { findInviteByTokenHash } from '../../db/queries/invites';
import { issueSession } from '../auth/session';
import type { AppDeps } from '../deps';
import { AcceptInviteBody } from './schema';
import { team } from './area';

async function inviteOfToken(deps: AppDeps, token: unknown) {
  return isWellFormedInviteToken(token) ? findInviteByTokenHash(deps.db, sha256Hex(token)) : undefined;
}

/**
 * Public lookup (spec 4.5): always 200; an unknown, malformed or superseded token is `invalid`. The query is read raw
 * so that no token, however malformed (repeated, empty), is a 400.
 */
export const lookupInvite = team.handler({ raw: ['query'] }, async ({ deps, ctx, raw }) => {
  const invite = await inviteOfToken(deps, raw.query.token);
  const state = invite ? inviteState(invite, new Date()) : 'invalid';
  ctx.body = {
    success: true,
    data: invite && state === 'pending' ? { valid: true, email: invite.email, role: invite.role, orgName: invite.org_name } : { valid: false, reason: state },
  };
});

/** Public accept (spec 3.3): creates the login and its membership, then signs the new member in. */
export const acceptInviteHandler = team.handler({ input: { body: AcceptInviteBody } }, async ({ deps, ctx, input: { body } }) => {
  const { user, member } = await acceptInvite(deps, { token: body.token, password: body.password, firstName: body.first_name, lastName: body.last_name });
  ctx.body = { success: true, data: await issueSession(deps, user, member) };
});
