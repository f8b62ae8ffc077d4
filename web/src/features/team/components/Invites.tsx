import { useState } from 'react';
import { useAction } from '../../../api/useLoad';
import { createInvite, resendInvite, revokeInvite, useInvites } from '../api/team';
import { useMember } from '../../../auth/session';
import { CopyField } from '../../../components/CopyButton';
import { Dialog } from '../../../components/Dialog';
import { SelectField, TextField } from '../../../components/Field';
import { ErrorNotice, LoadStatus, StatusBadge } from '../../../components/Status';
import { formatDateTime } from '../../../format';

/** Pending invites (Owner and Admins): invite by email, resend (a new link, 7 more days), withdraw. */
export function Invites() {
  const me = useMember();
  const invites = useInvites();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'member' | 'admin'>('member');
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  const invite = useAction(async () => {
    const created = await createInvite({ email: email.trim(), role });
    setLink({ email: created.data.email, url: created.data.acceptUrl });
    setEmail('');
    invites.reload();
  });
  const resend = useAction(async (id: string, address: string) => {
    const sent = await resendInvite(id);
    setLink({ email: address, url: sent.data.acceptUrl });
    invites.reload();
  });
  const revoke = useAction(async (id: string) => {
    await revokeInvite(id);
    invites.reload();
  });
  const list = invites.data?.data.invites ?? [];

  return (
    <section aria-labelledby="invites-title">
      <h2 id="invites-title">Invites</h2>
      <form
        className="panel inline-form"
        aria-label="Invite someone"
        onSubmit={(event) => {
          event.preventDefault();
          void invite.run();
        }}
      >
        <TextField
          label="Email to invite"
          type="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          problems={invite.error?.problemsAt('email')}
        />
        <SelectField label="Role" value={role} onChange={(event) => setRole(event.target.value as 'member' | 'admin')}>
          <option value="member">Member</option>
          {me.role === 'owner' && <option value="admin">Admin</option>}
        </SelectField>
        <button type="submit" className="button button-primary" disabled={invite.pending || email.trim() === ''}>
          {invite.pending ? 'Inviting…' : 'Send invite'}
        </button>
      </form>
      <ErrorNotice error={invite.error} title="The invite was not sent." />
      <ErrorNotice error={resend.error ?? revoke.error} />
      <LoadStatus load={invites} />
      {invites.data && list.length === 0 && <p>No pending invites. Invite a colleague above: they get an email with a link valid for 7 days.</p>}
      {list.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption>Pending invites</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Expires</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.map((item) => (
                <tr key={item.id}>
                  <td>{item.email}</td>
                  <td>{item.role === 'admin' ? 'Admin' : 'Member'}</td>
                  <td>
                    {formatDateTime(item.expiresAt)} {item.expired && <StatusBadge status="expired" />}
                  </td>
                  <td>
                    <div className="row-actions">
                      <button
                        type="button"
                        className="button button-small"
                        disabled={resend.pending}
                        onClick={() => void resend.run(item.id, item.email)}
                        aria-label={`Resend the invite to ${item.email}`}
                      >
                        Resend
                      </button>
                      <button
                        type="button"
                        className="button button-small"
                        disabled={revoke.pending}
                        onClick={() => void revoke.run(item.id)}
                        aria-label={`Withdraw the invite to ${item.email}`}
                      >
                        Withdraw
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Dialog open={link !== null} title="Invite sent" onClose={() => setLink(null)}>
        <p>An email with this link is on its way to {link?.email}. You can also pass the link on yourself; it works once, for 7 days.</p>
        {link && <CopyField label="Accept link" value={link.url} />}
      </Dialog>
    </section>
  );
}
