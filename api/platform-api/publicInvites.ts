import type { Context } from 'koa';
import { sha256Hex } from '../../core/apiKeyToken';
import { inviteState, isWellFormedInviteToken } from '../../core/invites';
import { hashPassword } from '../../core/password';
import { acceptInvite, findInviteByTokenHash } from '../../db/queries/invites';
import { emailHasAccount } from '../../db/queries/team';
import { issueSession } from '../auth/session';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import type { InputOf } from '../endpoint';
import { alreadyMember } from './errors';
import { type AcceptInviteBody } from './schema';

const invalidToken = () => new AppError(400, 'INVALID_TOKEN', 'This invite link is malformed or no longer valid');
const inviteUsed = () => new AppError(409, 'INVITE_USED', 'This invite has already been accepted');
const inviteExpired = () => new AppError(410, 'INVITE_EXPIRED', 'This invite has expired; ask for a new one');

const REFUSED_ACCEPT = { gone: invalidToken, used: inviteUsed, expired: inviteExpired, already_member: alreadyMember };

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

/**
 * Public accept (spec 3.3): creates the login and its membership in the inviting organisation and
 * signs the new member in. The state is checked again under a row lock inside `acceptInvite`, so two
 * concurrent accepts create one login.
 */
export async function acceptInviteHandler(deps: AppDeps, ctx: Context, { body }: InputOf<{ body: typeof AcceptInviteBody }>): Promise<void> {
  const invite = await inviteOfToken(deps, body.token);
  if (!invite) throw invalidToken();
  const state = inviteState(invite, new Date());
  if (state === 'revoked') throw invalidToken();
  if (state === 'accepted') throw inviteUsed();
  if (state === 'expired') throw inviteExpired();
  if (await emailHasAccount(deps.db, invite.email)) throw alreadyMember();
  const outcome = await acceptInvite(deps.db, invite, {
    passwordHash: await hashPassword(body.password),
    firstName: body.first_name,
    lastName: body.last_name,
    now: new Date(),
  });
  if (outcome.kind !== 'accepted') throw REFUSED_ACCEPT[outcome.kind]();
  ctx.body = { success: true, data: await issueSession(deps, outcome.user, outcome.member) };
}
