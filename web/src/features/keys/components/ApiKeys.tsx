import { useState } from 'react';
import { useAction } from '../../../api/useLoad';
import { useCanManage, useMember } from '../../../auth/session';
import { CopyField } from '../../../components/CopyButton';
import { ConfirmDialog, Dialog } from '../../../components/Dialog';
import { TextField } from '../../../components/Field';
import { EmptyState, ErrorNotice, LoadStatus, PageHeader, StatusBadge } from '../../../components/Status';
import { ConnectedHosts } from './ConnectedHosts';
import { KeyRow } from './KeyRow';
import { keyName, type ApiKey } from './keys';
import { McpDialog } from './McpDialog';
import { createApiKey, removeApiKey, useApiKeys } from '../api/keys';

type Pending = { kind: 'revoke' | 'delete'; key: ApiKey } | null;

/** API keys (spec 4.1): create (the plaintext is shown once), rename, revoke, delete, MCP access. */
export default function ApiKeys() {
  const member = useMember();
  const manage = useCanManage();
  const keys = useApiKeys();
  const [label, setLabel] = useState('');
  const [created, setCreated] = useState<{ key: string; label: string } | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [mcpKey, setMcpKey] = useState<ApiKey | null>(null);

  const create = useAction(async () => {
    const result = await createApiKey({ operatorId: member.operatorId, label: label.trim() });
    setCreated({ key: result.data.key, label: result.data.label });
    setLabel('');
    keys.reload();
  });
  const remove = useAction(async (target: NonNullable<Pending>) => {
    await removeApiKey(target.kind === 'delete' ? { id: target.key.id, hard: 'true' } : { id: target.key.id });
    setPending(null);
    keys.reload();
  });
  const list = keys.data?.data ?? [];

  return (
    <>
      <PageHeader
        title="API keys"
        lead="Keys let your systems send data, call suppliers through the gateway and use MCP. Only a key's SHA-256 is stored: the key itself is shown once, when it is created."
      />
      {manage && (
        <form
          className="panel inline-form"
          aria-label="Create a key"
          onSubmit={(event) => {
            event.preventDefault();
            void create.run();
          }}
        >
          <TextField
            label="Label for a new key"
            value={label}
            onChange={(event) => setLabel(event.target.value)}
            placeholder="e.g. Production backend"
            maxLength={200}
          />
          <button type="submit" className="button button-primary" disabled={create.pending}>
            {create.pending ? 'Creating…' : 'Create key'}
          </button>
        </form>
      )}
      <ErrorNotice error={create.error} title="The key could not be created." />
      <LoadStatus load={keys} />
      {keys.data && list.length === 0 && (
        <EmptyState title="No API keys yet">
          <p>{manage ? 'Create one above, then send it as “Authorization: Bearer svc_live_…”.' : 'Ask an Owner or Admin to create one.'}</p>
        </EmptyState>
      )}
      {list.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption>Keys of {member.operatorName}</caption>
            <thead>
              <tr>
                <th scope="col">Label</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
                <th scope="col">MCP</th>
                {manage && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {list.map((key) => (
                <KeyRow
                  key={key.id}
                  record={key}
                  manage={manage}
                  onChanged={keys.reload}
                  onMcp={() => setMcpKey(key)}
                  onRevoke={() => setPending({ kind: 'revoke', key })}
                  onDelete={() => setPending({ kind: 'delete', key })}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Dialog
        open={created !== null}
        title="Your new API key"
        onClose={() => setCreated(null)}
        actions={
          <button type="button" className="button button-primary" onClick={() => setCreated(null)}>
            I have copied it
          </button>
        }
      >
        <p className="notice notice-warn">Copy it now: it is not shown again. Store it like a password.</p>
        {created && <CopyField label={created.label || 'Key'} value={created.key} />}
      </Dialog>
      <ConfirmDialog
        open={pending !== null}
        title={pending?.kind === 'delete' ? 'Delete this key for good?' : 'Revoke this key?'}
        confirmLabel={pending?.kind === 'delete' ? 'Delete key' : 'Revoke key'}
        danger
        pending={remove.pending}
        error={remove.error}
        onCancel={() => {
          setPending(null);
          remove.clear();
        }}
        onConfirm={() => pending && void remove.run(pending)}
      >
        {pending?.kind === 'delete' ? (
          <p>The revoked key “{keyName(pending.key)}” and its record are removed.</p>
        ) : (
          <p>
            Requests with “{keyName(pending?.key)}” stop working at once. The record stays (<StatusBadge status="revoked" />) until you delete it.
          </p>
        )}
      </ConfirmDialog>
      {mcpKey && (
        <McpDialog
          record={mcpKey}
          onClose={() => setMcpKey(null)}
          onSaved={() => {
            setMcpKey(null);
            keys.reload();
          }}
        />
      )}
      <p className="hint">Times are in your time zone; a key's last use shows up within a few seconds.</p>
      <ConnectedHosts />
    </>
  );
}
