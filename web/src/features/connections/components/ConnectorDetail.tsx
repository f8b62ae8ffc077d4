import { plural } from '../../../format';
import { Dialog } from '../../../components/Dialog';
import { ErrorNotice, Loading } from '../../../components/Status';
import { useConnector } from '../api/connections';

/** A connector's operations, security schemes and field map, as the gateway will use them. */
export function ConnectorDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const connector = useConnector(id);
  const data = connector.data?.data;
  return (
    <Dialog open wide title={data ? `${data.name} (${data.provider})` : 'Connector'} onClose={onClose}>
      <ErrorNotice error={connector.error} />
      {!data && !connector.error && <Loading />}
      {data && (
        <>
          <p>
            {data.specification ?? 'No document'} · server {data.serverUrl ?? 'none (connections need a base URL)'} · {plural(data.operationCount, 'operation')}
          </p>
          {data.operations.length > 0 && (
            <div className="table-wrap">
              <table>
                <caption>Operations</caption>
                <thead>
                  <tr>
                    <th scope="col">Method</th>
                    <th scope="col">Path</th>
                    <th scope="col">Operation id</th>
                    <th scope="col">Summary</th>
                  </tr>
                </thead>
                <tbody>
                  {data.operations.map((operation) => (
                    <tr key={`${operation.method} ${operation.path}`}>
                      <td>{operation.method.toUpperCase()}</td>
                      <td>
                        <code>{operation.path}</code>
                      </td>
                      <td>{operation.operationId ?? '—'}</td>
                      <td>{operation.summary ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <h3>Field names</h3>
          {Object.keys(data.schemaMap).length === 0 ? (
            <p>No renaming: fields pass as they are.</p>
          ) : (
            <ul>
              {Object.entries(data.schemaMap).map(([canonical, provider]) => (
                <li key={canonical}>
                  <code>{canonical}</code> → <code>{provider}</code>
                </li>
              ))}
            </ul>
          )}
          <h3>Authentication</h3>
          <p>
            {Object.entries(data.securitySchemes)
              .map(([name, scheme]) => `${name}: ${scheme.kind}${scheme.name ? ` (${scheme.in ?? ''} ${scheme.name})` : ''}`)
              .join(' · ') || 'None declared: a bearer token from the credentials'}
          </p>
        </>
      )}
    </Dialog>
  );
}
