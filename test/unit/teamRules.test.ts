import { canManageTeam, refuseInviteAction, refuseMemberAction, type MemberAction, type TeamRole } from '../../core/teamRules';

const caller = (role: TeamRole, memberId = `caller-${role}`) => ({ memberId, role });
const target = (role: TeamRole, id = `target-${role}`) => ({ id, role });
const suspend: MemberAction = { kind: 'suspend' };
const setRole = (role?: 'admin' | 'member'): MemberAction => ({ kind: 'update', role });
const codeOf = (...args: Parameters<typeof refuseMemberAction>) => refuseMemberAction(...args)?.code ?? 'ALLOWED';

describe('canManageTeam', () => {
  it('Owner and Admin manage; a Member does not', () => {
    expect([canManageTeam('owner'), canManageTeam('admin'), canManageTeam('member')]).toEqual([true, true, false]);
  });
});

describe('refuseMemberAction', () => {
  it('a Member has no management rights, on anyone', () => {
    for (const role of ['owner', 'admin', 'member'] as const) {
      for (const action of [suspend, setRole('member'), setRole()]) expect(codeOf(caller('member'), target(role), action)).toBe('FORBIDDEN');
    }
  });

  it('nobody acts on themselves: INVALID_INPUT for Owner and Admin alike', () => {
    for (const role of ['owner', 'admin'] as const) {
      const self = caller(role, 'me');
      expect(refuseMemberAction(self, target(role, 'me'), suspend)).toEqual({ code: 'INVALID_INPUT', message: 'You cannot revoke your own access' });
      expect(refuseMemberAction(self, target(role, 'me'), setRole('member'))).toEqual({
        code: 'INVALID_INPUT',
        message: 'You cannot change your own membership',
      });
    }
  });

  it('the Owner is protected: revoking is OWNER_PROTECTED, changing is FORBIDDEN', () => {
    expect(codeOf(caller('admin'), target('owner'), suspend)).toBe('OWNER_PROTECTED');
    expect(codeOf(caller('admin'), target('owner'), setRole('member'))).toBe('FORBIDDEN');
    expect(codeOf(caller('admin'), target('owner'), setRole())).toBe('FORBIDDEN');
  });

  it('an Admin acts on Members only and never grants admin', () => {
    expect(codeOf(caller('admin'), target('member'), suspend)).toBe('ALLOWED');
    expect(codeOf(caller('admin'), target('member'), setRole('member'))).toBe('ALLOWED');
    expect(codeOf(caller('admin'), target('member'), setRole())).toBe('ALLOWED');
    expect(refuseMemberAction(caller('admin'), target('member'), setRole('admin'))).toEqual({
      code: 'FORBIDDEN',
      message: 'Only the Owner can grant the admin role',
    });
    expect(codeOf(caller('admin'), target('admin'), suspend)).toBe('FORBIDDEN');
    expect(codeOf(caller('admin'), target('admin'), setRole('member'))).toBe('FORBIDDEN');
  });

  it('the Owner acts on Admins and Members, including granting admin', () => {
    for (const role of ['admin', 'member'] as const) {
      for (const action of [suspend, setRole('admin'), setRole('member'), setRole()]) expect(codeOf(caller('owner'), target(role), action)).toBe('ALLOWED');
    }
  });
});

describe('refuseInviteAction', () => {
  it('the Owner invites either role; an Admin only members; a Member nobody', () => {
    expect([refuseInviteAction('owner', 'admin'), refuseInviteAction('owner', 'member'), refuseInviteAction('admin', 'member')]).toEqual([null, null, null]);
    expect(refuseInviteAction('admin', 'admin')).toEqual({ code: 'FORBIDDEN', message: 'An Admin can invite Members only' });
    expect(refuseInviteAction('member', 'member')?.code).toBe('FORBIDDEN');
  });
});
