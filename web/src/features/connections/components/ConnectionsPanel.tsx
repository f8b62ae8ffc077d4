import { useState } from 'react';
import type { Loaded } from '../../../api/useLoad';
import type { components } from '../../../api/schema';
import { useCanManage } from '../../../auth/session';
import { EmptyState, LoadStatus, StatusBadge } from '../../../components/Status';
import { formatDateTime } from '../../../format';
import { ConnectionForm } from './ConnectionForm';

type Connection = components['schemas']['Connection'];
/** A connector as the list returns it (without its document and operations). */
type Connector = Omit<components['schemas']['Connector'], 'operations' | 'securitySchemes' | 'openapi'>;

export function ConnectionsPanel({
  connections,
  connectors,
  onChanged,
}: {
  connections: Loaded<{ data: Connection[] }>;
  connectors: Connector[];
  onChanged: () => void;
}) {
  const manage = useCanManage();
  const [editing, setEditing] = useState<Connection | 'new' | null>(null);
  const list = connections.data?.data ?? [];
  const nameOf = (id: string | null) => connectors.find((connector) => connector.id === id)?.name ?? (id ? id : 'deleted connector');
  return (
    <section aria-labelledby="connections-title">
      <div className="page-header">
        <h2 id="connections-title">Connections</h2>
        {manage && editing === null && (
          <button type="button" className="button button-primary" onClick={() => setEditing('new')} disabled={connectors.length === 0}>
            Add a connection
          </button>
        )}
      </div>
      {editing !== null && (
        <ConnectionForm
          connection={editing === 'new' ? null : editing}
          connectors={connectors}
          onCancel={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            onChanged();
          }}
        />
      )}
      <LoadStatus load={connections} />
      {connections.data && list.length === 0 && editing === null && (
        <EmptyState title="No connections yet">
          <p>{connectors.length === 0 ? 'Add a connector first.' : 'A connection holds the credentials and base URL for one connector.'}</p>
        </EmptyState>
      )}
      {list.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Connector</th>
                <th scope="col">Base URL</th>
                <th scope="col">Status</th>
                <th scope="col">Updated</th>
                {manage && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {list.map((connection) => (
                <tr key={connection.id}>
                  <td>
                    {connection.name}
                    <br />
                    <code className="hint">{connection.id}</code>
                  </td>
                  <td>{nameOf(connection.connectorId)}</td>
                  <td>{connection.baseUrl ?? 'from the document'}</td>
                  <td>
                    <StatusBadge status={connection.active ? 'active' : 'inactive'} />
                  </td>
                  <td>{formatDateTime(connection.updatedAt)}</td>
                  {manage && (
                    <td>
                      <button type="button" className="button button-small" onClick={() => setEditing(connection)} aria-label={`Edit ${connection.name}`}>
                        Edit
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
