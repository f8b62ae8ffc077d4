import { sha256Hex } from '../../core/apiKeyToken';
import { inviteState, isWellFormedInviteToken } from '../../core/invites';
import { hashPassword } from '../../core/password';
import type { MemberRow, UserRow } from '../../db/queries/identity';
import { acceptInvite as redeemInvite, findInviteByTokenHash } from '../../db/queries/invites';
import { emailHasAccount } from '../../db/queries/team';
import { recordAudit } from '../audit';
import type { CommandDeps } from '../deps';
import { CommandError } from '../errors';
import { alreadyMember } from './refusals';

export interface AcceptInviteInput {
  /** The raw token from the invite link. */
  token: string;
  password: string;
  firstName: string;
  lastName: string;
}

export interface AcceptedInvite {
  user: UserRow;
  member: MemberRow;
}

const invalidToken = () => new CommandError('INVALID_TOKEN', 'This invite link is malformed or no longer valid');
const inviteUsed = () => new CommandError('INVITE_USED', 'This invite has already been accepted');
const inviteExpired = () => new CommandError('INVITE_EXPIRED', 'This invite has expired; ask for a new one');

const REFUSED_ACCEPT = { gone: invalidToken, used: inviteUsed, expired: inviteExpired, already_member: alreadyMember };

/**
 * Accepts an invite (spec 3.3): creates the login and its membership in the inviting organisation. The state is
 * checked again under a row lock while accepting, so two concurrent accepts create one login. The audit event
 * (`invite.accepted`) names the new member as its actor and is written in the same transaction. Signing the new
 * member in is left to the caller, since a session is signed with the API's secret.
 */
export async function acceptInvite(deps: Pick<CommandDeps, 'db'>, input: AcceptInviteInput): Promise<AcceptedInvite> {
  const invite = isWellFormedInviteToken(input.token) ? await findInviteByTokenHash(deps.db, sha256Hex(input.token)) : undefined;
  if (!invite) throw invalidToken();
  const state = inviteState(invite, new Date());
  if (state === 'revoked') throw invalidToken();
  if (state === 'accepted') throw inviteUsed();
  if (state === 'expired') throw inviteExpired();
  if (await emailHasAccount(deps.db, invite.email)) throw alreadyMember();
  const passwordHash = await hashPassword(input.password);
  const { org_name: _organisation, ...before } = invite;
  return deps.db.transaction(async (trx) => {
    const outcome = await redeemInvite(trx, invite, { passwordHash, firstName: input.firstName, lastName: input.lastName, now: new Date() });
    if (outcome.kind !== 'accepted') throw REFUSED_ACCEPT[outcome.kind]();
    const { org_name: _name, ...after } = (await findInviteByTokenHash(trx, invite.token_hash))!;
    await recordAudit(trx, {
      operatorId: invite.operator_id,
      actor: `member:${outcome.member.id}`,
      action: 'invite.accepted',
      target: { type: 'invite', id: invite.id },
      before,
      after,
      note: `joined as member ${outcome.member.id}`,
    });
    return { user: outcome.user, member: outcome.member };
  });
}
