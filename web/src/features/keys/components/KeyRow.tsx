import { useState } from 'react';
import { useAction } from '../../../api/useLoad';
import { ErrorNotice, StatusBadge } from '../../../components/Status';
import { formatDateTime } from '../../../format';
import { keyName, type ApiKey } from './keys';
import { renameApiKey } from '../api/keys';

interface Props {
  record: ApiKey;
  manage: boolean;
  onChanged: () => void;
  onMcp: () => void;
  onRevoke: () => void;
  onDelete: () => void;
}

/** One key: its label (renamed in place), dates, status, MCP access and what may be done with it. */
export function KeyRow({ record, manage, onChanged, onMcp, onRevoke, onDelete }: Props) {
  const [editing, setEditing] = useState(false);
  const [label, setLabel] = useState(record.label);
  const rename = useAction(async () => {
    await renameApiKey({ id: record.id, label: label.trim() });
    setEditing(false);
    onChanged();
  });
  const name = keyName(record);
  return (
    <tr>
      <td>
        {editing ? (
          <form
            className="inline-form"
            onSubmit={(event) => {
              event.preventDefault();
              void rename.run();
            }}
          >
            <label className="visually-hidden" htmlFor={`label-${record.id}`}>
              New label for {name}
            </label>
            <input id={`label-${record.id}`} value={label} onChange={(event) => setLabel(event.target.value)} maxLength={200} autoFocus />
            <button type="submit" className="button button-small button-primary" disabled={rename.pending || label.trim() === ''}>
              Save
            </button>
            <button type="button" className="button button-small" onClick={() => setEditing(false)}>
              Cancel
            </button>
            <ErrorNotice error={rename.error} />
          </form>
        ) : (
          <>
            {name}
            <br />
            <code className="hint" title="SHA-256 of the key">
              {record.keyHash.slice(0, 12)}…
            </code>
          </>
        )}
      </td>
      <td>{formatDateTime(record.createdAt)}</td>
      <td>{record.lastUsedAt ? formatDateTime(record.lastUsedAt) : 'never'}</td>
      <td>
        <StatusBadge status={record.revoked ? 'revoked' : 'active'} />
      </td>
      <td>
        <StatusBadge status={record.mcp_enabled ? 'enabled' : 'disabled'} />
        {record.mcp_enabled && (
          <span className="hint">
            <br />
            {record.mcp_workflow_allowlist === null ? 'all exposed workflows' : `${record.mcp_workflow_allowlist.length} workflow(s)`}
          </span>
        )}
      </td>
      {manage && (
        <td>
          <div className="row-actions">
            {!editing && (
              <button type="button" className="button button-small" onClick={() => setEditing(true)} aria-label={`Rename ${name}`}>
                Rename
              </button>
            )}
            {!record.revoked && (
              <button type="button" className="button button-small" onClick={onMcp} aria-label={`MCP access of ${name}`}>
                MCP…
              </button>
            )}
            {record.revoked ? (
              <button type="button" className="button button-small button-danger" onClick={onDelete} aria-label={`Delete ${name}`}>
                Delete
              </button>
            ) : (
              <button type="button" className="button button-small" onClick={onRevoke} aria-label={`Revoke ${name}`}>
                Revoke
              </button>
            )}
          </div>
        </td>
      )}
    </tr>
  );
}
