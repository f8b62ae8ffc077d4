import type { Knex } from 'knex';
import { isUuid } from '../../core/ids';
import { refuseMemberAction, type AssignableRole, type MemberAction } from '../../core/teamRules';
import type { MemberRow } from '../../db/queries/identity';
import { lockMember, suspendMember, updateMember } from '../../db/queries/team';
import { recordAudit } from '../audit';
import type { CommandDeps } from '../deps';
import { memberNotFound, refused, type TeamCaller } from './refusals';

export interface MemberRef {
  operatorId: string;
  caller: TeamCaller;
  /** The member acted on; anything but one of the operator's member ids is `NOT_FOUND`. */
  memberId: string;
}

export interface ChangeMemberInput extends MemberRef {
  /** Left out: unchanged. */
  role?: AssignableRole;
  /** Only `active` (reinstate): revoking is `revokeMemberAccess`. Left out: unchanged. */
  status?: 'active';
}

/**
 * Checks the role rules against the target as locked in the transaction, then applies `change`, so a concurrent
 * role change cannot slip between the check and the write. An unknown, malformed or other operator's id is
 * `NOT_FOUND` before any rule is told apart. The caller is the audit event's actor; a change that changed nothing records none.
 */
async function actOnMember(
  deps: Pick<CommandDeps, 'db'>,
  ref: MemberRef,
  action: MemberAction,
  change: (trx: Knex.Transaction, target: MemberRow) => Promise<MemberRow>,
): Promise<MemberRow> {
  if (!isUuid(ref.memberId)) throw memberNotFound();
  return deps.db.transaction(async (trx) => {
    const target = await lockMember(trx, ref.operatorId, ref.memberId);
    if (!target) throw memberNotFound();
    const refusal = refuseMemberAction(ref.caller, target, action);
    if (refusal) throw refused(refusal);
    const after = await change(trx, target);
    await recordAudit(trx, {
      operatorId: ref.operatorId,
      actor: `member:${ref.caller.memberId}`,
      action: action.kind === 'suspend' ? 'member.suspended' : 'member.updated',
      target: { type: 'member', id: target.id },
      before: target,
      after,
    });
    return after;
  });
}

/**
 * Changes a member's role and/or reinstates a suspended member (spec 3.2); a role change leaves the status alone.
 * Callers holding cached memberships must drop them afterwards.
 */
export async function changeMember(deps: Pick<CommandDeps, 'db'>, input: ChangeMemberInput): Promise<MemberRow> {
  return actOnMember(deps, input, { kind: 'update', role: input.role }, (trx, target) =>
    updateMember(trx, target.operator_id, target.id, {
      ...(input.role !== undefined ? { role: input.role } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
    }),
  );
}

/**
 * Revokes (suspends) a member: their sessions die at once and they cannot sign in; API keys they created keep
 * working (spec 5 rule 8). Callers holding cached memberships must drop them afterwards.
 */
export async function revokeMemberAccess(deps: Pick<CommandDeps, 'db'>, input: MemberRef): Promise<MemberRow> {
  return actOnMember(deps, input, { kind: 'suspend' }, (trx, target) => suspendMember(trx, target.operator_id, target.id));
}
