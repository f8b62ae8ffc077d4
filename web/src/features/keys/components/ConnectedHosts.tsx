import { useState } from 'react';
import { useAction } from '../../../api/useLoad';
import { useMember } from '../../../auth/session';
import { ConfirmDialog } from '../../../components/Dialog';
import { EmptyState, LoadStatus, StatusBadge } from '../../../components/Status';
import { formatDateTime } from '../../../format';
import { HostRules } from './HostRules';
import { disconnectHost, useConnectedHosts } from '../api/keys';

interface Host {
  id: string;
  client_name: string;
  redirect_host: string;
  member_id: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const access = (scopes: string[]) => (scopes.includes('mcp:tools.write') ? 'Read and write tools' : 'Read-only tools');

/**
 * MCP hosts connected with OAuth (`GET /oauth/hosts`): which host, approved by whom for what, when it was last used, and
 * a Disconnect button (`DELETE /oauth/hosts/:id`) — the Owner and Admins for any host, a Member for the hosts they approved.
 */
export function ConnectedHosts() {
  const member = useMember();
  const hosts = useConnectedHosts();
  const [pending, setPending] = useState<Host | null>(null);
  const disconnect = useAction(async (host: Host) => {
    await disconnectHost(host.id);
    setPending(null);
    hosts.reload();
  });
  const list = (hosts.data?.data ?? []) as Host[];
  const mayDisconnect = (host: Host) => host.revoked_at === null && (member.role !== 'member' || host.member_id === member.memberId);
  return (
    <section aria-labelledby="connected-hosts">
      <h2 id="connected-hosts">Connected MCP hosts</h2>
      <p className="hint">Hosts such as Claude or ChatGPT that a member connected by signing in (OAuth), with the URL of the MCP server alone.</p>
      {member.role !== 'member' && <HostRules />}
      <LoadStatus load={hosts} />
      {hosts.data && list.length === 0 && <EmptyState title="No host connected yet" />}
      {list.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption>MCP hosts of {member.operatorName}</caption>
            <thead>
              <tr>
                <th scope="col">Host</th>
                <th scope="col">Access</th>
                <th scope="col">Connected</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.map((host) => (
                <tr key={host.id}>
                  <td data-label="Host">
                    {host.client_name} <span className="hint">({host.redirect_host})</span>
                  </td>
                  <td data-label="Access">{access(host.scopes)}</td>
                  <td data-label="Connected">{formatDateTime(host.created_at)}</td>
                  <td data-label="Last used">{host.last_used_at ? formatDateTime(host.last_used_at) : 'Never'}</td>
                  <td data-label="Status">
                    <StatusBadge status={host.revoked_at ? 'revoked' : 'active'} />
                  </td>
                  <td data-label="Actions">
                    {mayDisconnect(host) && (
                      <button type="button" className="button" onClick={() => setPending(host)}>
                        Disconnect<span className="visually-hidden"> {host.client_name}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={pending !== null}
        title="Disconnect this host?"
        confirmLabel="Disconnect"
        danger
        pending={disconnect.pending}
        error={disconnect.error}
        onCancel={() => {
          setPending(null);
          disconnect.clear();
        }}
        onConfirm={() => pending && void disconnect.run(pending)}
      >
        <p>“{pending?.client_name}” loses access at once: its tokens stop working and it must ask again.</p>
      </ConfirmDialog>
    </section>
  );
}
