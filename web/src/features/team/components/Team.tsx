import { useState } from 'react';
import { useAction } from '../../../api/useLoad';
import { changeMember, suspendMember, useMembers } from '../api/team';
import type { components } from '../../../api/schema';
import { useCanManage, useMember } from '../../../auth/session';
import { ConfirmDialog } from '../../../components/Dialog';
import { ErrorNotice, Loading, PageHeader, StatusBadge } from '../../../components/Status';
import { formatDateTime } from '../../../format';
import { Invites } from './Invites';

type Member = components['schemas']['Member'];
const ROLE = { owner: 'Owner', admin: 'Admin', member: 'Member' } as const;

/** Members and roles (spec 4.5): the Owner manages Admins and Members, an Admin manages Members, nobody themselves. */
export default function Team() {
  const me = useMember();
  const manage = useCanManage();
  const members = useMembers();
  const [suspending, setSuspending] = useState<Member | null>(null);
  const change = useAction(async (target: Member, body: { role?: 'admin' | 'member'; status?: 'active' }) => {
    await changeMember(target.id, body);
    members.reload();
  });
  const suspend = useAction(async (target: Member) => {
    await suspendMember(target.id);
    setSuspending(null);
    members.reload();
  });
  const mayManage = (target: Member) => manage && !target.isSelf && !target.isOwner && (me.role === 'owner' || target.role === 'member');
  const list = members.data?.data.members ?? [];

  return (
    <>
      <PageHeader title="Team" lead="Everyone in your organisation. The Owner manages Admins and Members; Admins manage Members; Members can see the team." />
      <ErrorNotice error={members.error} onRetry={members.reload} />
      <ErrorNotice error={change.error} title="The member was not changed." />
      {members.loading && !members.data && <Loading />}
      {list.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption>
              {list.length} member{list.length === 1 ? '' : 's'}
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Joined</th>
                {manage && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {list.map((member) => (
                <tr key={member.id}>
                  <td>
                    {member.displayName}
                    {member.isSelf && <span className="hint"> (you)</span>}
                  </td>
                  <td>{member.email}</td>
                  <td>
                    {mayManage(member) && me.role === 'owner' ? (
                      <>
                        <label className="visually-hidden" htmlFor={`role-${member.id}`}>
                          Role of {member.email}
                        </label>
                        <select
                          id={`role-${member.id}`}
                          value={member.role}
                          disabled={change.pending}
                          onChange={(event) => void change.run(member, { role: event.target.value as 'admin' | 'member' })}
                        >
                          <option value="admin">Admin</option>
                          <option value="member">Member</option>
                        </select>
                      </>
                    ) : (
                      ROLE[member.role]
                    )}
                  </td>
                  <td>
                    <StatusBadge status={member.status} />
                  </td>
                  <td>{formatDateTime(member.createdAt)}</td>
                  {manage && (
                    <td>
                      {mayManage(member) &&
                        (member.status === 'active' ? (
                          <button type="button" className="button button-small" onClick={() => setSuspending(member)} aria-label={`Suspend ${member.email}`}>
                            Suspend
                          </button>
                        ) : (
                          <button
                            type="button"
                            className="button button-small"
                            onClick={() => void change.run(member, { status: 'active' })}
                            aria-label={`Reinstate ${member.email}`}
                          >
                            Reinstate
                          </button>
                        ))}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {manage && <Invites />}
      <ConfirmDialog
        open={suspending !== null}
        title={`Suspend ${suspending?.email ?? ''}?`}
        confirmLabel="Suspend"
        danger
        pending={suspend.pending}
        error={suspend.error}
        onCancel={() => {
          setSuspending(null);
          suspend.clear();
        }}
        onConfirm={() => suspending && void suspend.run(suspending)}
      >
        <p>They are signed out at once and cannot sign in until reinstated. API keys they created keep working: keys belong to the organisation.</p>
      </ConfirmDialog>
    </>
  );
}
