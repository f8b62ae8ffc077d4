import { useState } from 'react';
import type { Loaded } from '../../../api/useLoad';
import { useAction } from '../../../api/useLoad';
import type { components } from '../../../api/schema';
import { useCanManage } from '../../../auth/session';
import { ConfirmDialog } from '../../../components/Dialog';
import { EmptyState, LoadStatus } from '../../../components/Status';
import { ConnectorDetail } from './ConnectorDetail';
import { ConnectorForm } from './ConnectorForm';
import { deleteConnector } from '../api/connections';

/** A connector as the list returns it (without its document and operations). */
type Connector = Omit<components['schemas']['Connector'], 'operations' | 'securitySchemes' | 'openapi'>;

export function ConnectorsPanel({ connectors, onChanged }: { connectors: Loaded<{ data: Connector[] }>; onChanged: () => void }) {
  const manage = useCanManage();
  const [adding, setAdding] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Connector | null>(null);
  const remove = useAction(async (id: string) => {
    await deleteConnector(id);
    setDeleting(null);
    onChanged();
  });
  const list = connectors.data?.data ?? [];
  return (
    <section aria-labelledby="connectors-title">
      <div className="page-header">
        <h2 id="connectors-title">Connectors</h2>
        {manage && !adding && (
          <button type="button" className="button button-primary" onClick={() => setAdding(true)}>
            Add a connector
          </button>
        )}
      </div>
      {adding && (
        <ConnectorForm
          onCancel={() => setAdding(false)}
          onSaved={() => {
            setAdding(false);
            onChanged();
          }}
        />
      )}
      <LoadStatus load={connectors} />
      {connectors.data && list.length === 0 && !adding && (
        <EmptyState title="No connectors yet">
          <p>A connector is a supplier's API: upload its OpenAPI (or Swagger) document and map your field names to theirs.</p>
        </EmptyState>
      )}
      {list.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Provider</th>
                <th scope="col">Document</th>
                <th scope="col" className="num">
                  Operations
                </th>
                <th scope="col">Server</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.map((connector) => (
                <tr key={connector.id}>
                  <td>{connector.name}</td>
                  <td>{connector.provider}</td>
                  <td>{connector.specification ?? <span className="badge badge-failed">none</span>}</td>
                  <td className="num">{connector.operationCount}</td>
                  <td>{connector.serverUrl ?? '—'}</td>
                  <td>
                    <div className="row-actions">
                      <button type="button" className="button button-small" onClick={() => setOpen(connector.id)} aria-label={`Details of ${connector.name}`}>
                        Details
                      </button>
                      {manage && (
                        <button type="button" className="button button-small" onClick={() => setDeleting(connector)} aria-label={`Delete ${connector.name}`}>
                          Delete
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {open && <ConnectorDetail id={open} onClose={() => setOpen(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the connector ${deleting?.name ?? ''}?`}
        confirmLabel="Delete connector"
        danger
        pending={remove.pending}
        error={remove.error}
        onCancel={() => {
          setDeleting(null);
          remove.clear();
        }}
        onConfirm={() => deleting && void remove.run(deleting.id)}
      >
        <p>Its connections stay but stop working (the gateway answers CONNECTOR_NOT_FOUND) until they are pointed at another connector.</p>
      </ConfirmDialog>
    </section>
  );
}
