import type { ConnectionRow } from '../../db/queries/connections';
import type { ConnectorRow, ConnectorSummaryRow } from '../../db/queries/connectors';

/** A connection as the API shows it: credentials are never part of it, not even masked. */
export function connectionRecord(row: ConnectionRow) {
  return {
    id: row.id,
    connectorId: row.connector_id,
    name: row.name,
    baseUrl: row.base_url,
    active: row.active,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** A connector as `GET /connectors` lists it: what its document holds, without the document. */
export function connectorSummary(row: ConnectorSummaryRow | ConnectorRow) {
  const blueprint = row.blueprint;
  return {
    id: row.id,
    name: row.name,
    provider: row.provider,
    hasSpec: blueprint !== null,
    specification: blueprint?.specification ?? null,
    serverUrl: blueprint?.serverUrl ?? null,
    operationCount: blueprint?.operations.length ?? 0,
    schemaMap: row.schema_map,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** One connector with its operations, security schemes and document. */
export function connectorDetail(row: ConnectorRow) {
  const operations = (row.blueprint?.operations ?? []).map(({ method, path, operationId, summary }) => ({ method, path, operationId, summary }));
  return { ...connectorSummary(row), operations, securitySchemes: row.blueprint?.securitySchemes ?? {}, openapi: row.openapi };
}
