import { PageHeader } from '../../../components/Status';
import { ConnectionsPanel } from './ConnectionsPanel';
import { ConnectorsPanel } from './ConnectorsPanel';
import { TryOperation } from './TryOperation';
import { useConnections, useConnectors } from '../api/connections';

/**
 * The supplier gateway's setup: connectors (a supplier's OpenAPI document and the field-name map),
 * connections (where to call and with which credentials), and a form that calls a supplier through
 * `/gateway` the way an integration or a workflow would.
 */
export default function Connections() {
  const connectors = useConnectors();
  const connections = useConnections();
  return (
    <>
      <PageHeader
        title="Connections"
        lead="Call suppliers (KYC, payments, game providers) in one canonical format: “entity.action” with your field names; the gateway finds the endpoint, renames the fields and adds the credentials."
      />
      <ConnectorsPanel
        connectors={connectors}
        onChanged={() => {
          connectors.reload();
          connections.reload();
        }}
      />
      <ConnectionsPanel connections={connections} connectors={connectors.data?.data ?? []} onChanged={connections.reload} />
      <TryOperation connections={connections.data?.data ?? []} />
    </>
  );
}
