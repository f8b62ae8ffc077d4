import { sha256Hex } from '../../core/apiKeyToken';
import { isUuid, secretToken } from '../../core/ids';
import { inviteExpiresAt } from '../../core/invites';
import { refuseInviteAction, type AssignableRole } from '../../core/teamRules';
import { createInvite as insertInvite, findPendingInvite, reissueInvite, revokeInvite as revokeInviteRow, type InviteRow } from '../../db/queries/invites';
import { emailIsMember } from '../../db/queries/team';
import { recordAudit, type AuditChange } from '../audit';
import type { CommandDeps } from '../deps';
import { CommandError } from '../errors';
import { alreadyInOrganisation, inviteNotFound, refused, type TeamCaller } from './refusals';

export interface InviteRef {
  operatorId: string;
  caller: TeamCaller;
  /** Anything but a pending invite of the operator is `NOT_FOUND`. */
  inviteId: string;
}

export interface CreateInviteInput {
  operatorId: string;
  caller: TeamCaller;
  /** Lower-cased by the caller. */
  email: string;
  role: AssignableRole;
}

export interface IssuedInvite {
  invite: InviteRow;
  /** The raw token, returned this once (only its SHA-256 is stored): the caller links and emails it. */
  token: string;
}

/** A pending invite of the operator that the caller's role may act on. */
async function pendingInviteFor(deps: Pick<CommandDeps, 'db'>, ref: InviteRef): Promise<InviteRow> {
  const invite = isUuid(ref.inviteId) ? await findPendingInvite(deps.db, ref.operatorId, ref.inviteId) : undefined;
  if (!invite) throw inviteNotFound();
  const refusal = refuseInviteAction(ref.caller.role, invite.role);
  if (refusal) throw refused(refusal);
  return invite;
}

/** The audit event of a change to an invite: the caller is the actor; the email is only hashed with the record. */
const inviteChange = (
  ref: { operatorId: string; caller: TeamCaller },
  action: AuditChange['action'],
  before: InviteRow | null,
  after: InviteRow,
): AuditChange => ({
  operatorId: ref.operatorId,
  actor: `member:${ref.caller.memberId}`,
  action,
  target: { type: 'invite', id: after.id },
  before,
  after,
});

/**
 * Invites an email into the organisation for 7 days, replacing a pending invite for the same email. `ALREADY_MEMBER`
 * only for an email of this organisation's members: an address with an account elsewhere is invited like any other
 * (its holder learns at accept), so the answer reveals nothing about other organisations. An Admin may neither
 * invite an Admin nor replace a pending Admin invite.
 */
export async function createInvite(deps: Pick<CommandDeps, 'db'>, input: CreateInviteInput): Promise<IssuedInvite> {
  const refusal = refuseInviteAction(input.caller.role, input.role);
  if (refusal) throw refused(refusal);
  if (await emailIsMember(deps.db, input.operatorId, input.email)) throw alreadyInOrganisation();
  const token = secretToken('inv');
  const invite = await deps.db.transaction(async (trx) => {
    const created = await insertInvite(
      trx,
      input.operatorId,
      { email: input.email, role: input.role, tokenHash: sha256Hex(token), expiresAt: inviteExpiresAt(new Date()), invitedByMemberId: input.caller.memberId },
      (pending) => refuseInviteAction(input.caller.role, pending.role) === null,
    );
    if (created === 'refused') throw new CommandError('FORBIDDEN', 'Only the Owner can replace a pending admin invite');
    await recordAudit(trx, inviteChange(input, 'invite.created', null, created));
    return created;
  });
  return { invite, token };
}

/** Reissues a pending invite: a new token (the old link stops working) and a fresh 7-day window. */
export async function resendInvite(deps: Pick<CommandDeps, 'db'>, input: InviteRef): Promise<IssuedInvite> {
  const current = await pendingInviteFor(deps, input);
  if (await emailIsMember(deps.db, current.operator_id, current.email)) throw alreadyInOrganisation();
  const token = secretToken('inv');
  const invite = await deps.db.transaction(async (trx) => {
    const reissued = await reissueInvite(trx, current.operator_id, current.id, { tokenHash: sha256Hex(token), expiresAt: inviteExpiresAt(new Date()) });
    if (!reissued) throw inviteNotFound();
    await recordAudit(trx, inviteChange(input, 'invite.resent', current, reissued));
    return reissued;
  });
  return { invite, token };
}

/** Revokes a pending invite: its link stops working. */
export async function revokeInvite(deps: Pick<CommandDeps, 'db'>, input: InviteRef): Promise<InviteRow> {
  const current = await pendingInviteFor(deps, input);
  return deps.db.transaction(async (trx) => {
    const invite = await revokeInviteRow(trx, current.operator_id, current.id);
    if (!invite) throw inviteNotFound();
    await recordAudit(trx, inviteChange(input, 'invite.revoked', current, invite));
    return invite;
  });
}
