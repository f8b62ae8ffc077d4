import type { Context } from 'koa';
import { acceptInvite } from '../../commands/team/acceptInvite';
import { sha256Hex } from '../../core/apiKeyToken';
import { inviteState, isWellFormedInviteToken } from '../../core/invites';
import { findInviteByTokenHash } from '../../db/queries/invites';
import { issueSession } from '../auth/session';
import type { AppDeps } from '../deps';
import type { InputOf } from '../endpoint';
import { type AcceptInviteBody } from './schema';

async function inviteOfToken(deps: AppDeps, token: unknown) {
  return isWellFormedInviteToken(token) ? findInviteByTokenHash(deps.db, sha256Hex(token)) : undefined;
}

/** Public lookup (spec 4.5): always 200; an unknown, malformed or superseded token is `invalid`. */
export async function lookupInvite(deps: AppDeps, ctx: Context): Promise<void> {
  const invite = await inviteOfToken(deps, ctx.query.token);
  const state = invite ? inviteState(invite, new Date()) : 'invalid';
  ctx.body = {
    success: true,
    data: invite && state === 'pending' ? { valid: true, email: invite.email, role: invite.role, orgName: invite.org_name } : { valid: false, reason: state },
  };
}

/** Public accept (spec 3.3): creates the login and its membership, then signs the new member in. */
export async function acceptInviteHandler(deps: AppDeps, ctx: Context, { body }: InputOf<{ body: typeof AcceptInviteBody }>): Promise<void> {
  const { user, member } = await acceptInvite(deps, { token: body.token, password: body.password, firstName: body.first_name, lastName: body.last_name });
  ctx.body = { success: true, data: await issueSession(deps, user, member) };
}
