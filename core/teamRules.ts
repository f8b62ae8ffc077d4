/** Team role rules (spec 4.5, 5 rule 5, 7.5 and DESIGN "Resolved ambiguities" → Team), free of I/O. */

export type TeamRole = 'owner' | 'admin' | 'member';
export type AssignableRole = 'admin' | 'member';

export interface TeamRefusal {
  code: 'INVALID_INPUT' | 'FORBIDDEN' | 'OWNER_PROTECTED';
  message: string;
}

export type MemberAction = { kind: 'suspend' } | { kind: 'update'; role?: AssignableRole };

const forbidden = (message: string): TeamRefusal => ({ code: 'FORBIDDEN', message });

/** Only the Owner and Admins manage the team; a Member has no management rights. */
export function canManageTeam(role: TeamRole): boolean {
  return role === 'owner' || role === 'admin';
}

/**
 * Why the caller may not perform `action` on `target`, or `null` when they may. Order matters: acting
 * on yourself is an input error whoever you are; suspending the Owner is `OWNER_PROTECTED` for anyone
 * else; an Admin touches Members only and never grants `admin`.
 */
export function refuseMemberAction(
  caller: { memberId: string; role: TeamRole },
  target: { id: string; role: TeamRole },
  action: MemberAction,
): TeamRefusal | null {
  if (!canManageTeam(caller.role)) return forbidden('Only the Owner or an Admin can manage members');
  if (caller.memberId === target.id) {
    return { code: 'INVALID_INPUT', message: action.kind === 'suspend' ? 'You cannot revoke your own access' : 'You cannot change your own membership' };
  }
  if (target.role === 'owner') {
    if (action.kind === 'suspend') return { code: 'OWNER_PROTECTED', message: 'The Owner cannot be revoked' };
    return forbidden('The Owner cannot be changed');
  }
  if (caller.role === 'admin') {
    if (target.role !== 'member') return forbidden('An Admin can manage Members only');
    if (action.kind === 'update' && action.role === 'admin') return forbidden('Only the Owner can grant the admin role');
  }
  return null;
}

/** Why the caller may not create, resend or revoke an invite for `inviteRole`: an Admin handles Member invites only. */
export function refuseInviteAction(callerRole: TeamRole, inviteRole: AssignableRole): TeamRefusal | null {
  if (!canManageTeam(callerRole)) return forbidden('Only the Owner or an Admin can manage invites');
  if (callerRole === 'admin' && inviteRole !== 'member') return forbidden('An Admin can invite Members only');
  return null;
}
