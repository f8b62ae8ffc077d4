import type { Blueprint } from '../../core/gateway/blueprint';
import type { SchemaMap } from '../../core/gateway/schemaMap';
import type { Db } from '../knex';

export interface ConnectorRow {
  id: string;
  operator_id: string;
  name: string;
  provider: string;
  openapi: Record<string, unknown> | null;
  blueprint: Blueprint | null;
  schema_map: SchemaMap;
  created_at: Date;
  updated_at: Date;
}

export type ConnectorSummaryRow = Omit<ConnectorRow, 'openapi'> & { has_spec: boolean };

const SUMMARY_COLUMNS = ['id', 'operator_id', 'name', 'provider', 'blueprint', 'schema_map', 'created_at', 'updated_at'];

export async function insertConnector(
  db: Db,
  input: {
    id: string;
    operatorId: string;
    name: string;
    provider: string;
    openapi: Record<string, unknown> | null;
    blueprint: Blueprint | null;
    schemaMap: SchemaMap;
  },
): Promise<ConnectorRow> {
  const [row] = (await db('connectors')
    .insert({
      id: input.id,
      operator_id: input.operatorId,
      name: input.name,
      provider: input.provider,
      openapi: input.openapi === null ? null : JSON.stringify(input.openapi),
      blueprint: input.blueprint === null ? null : JSON.stringify(input.blueprint),
      schema_map: JSON.stringify(input.schemaMap),
    })
    .returning('*')) as ConnectorRow[];
  return row!;
}

/** The operator's connectors without their (possibly large) documents, newest first. */
export async function listConnectors(db: Db, operatorId: string): Promise<ConnectorSummaryRow[]> {
  const rows = (await db('connectors')
    .where({ operator_id: operatorId })
    .orderBy('created_at', 'desc')
    .select([...SUMMARY_COLUMNS, db.raw('openapi IS NOT NULL AS has_spec')])) as ConnectorSummaryRow[];
  return rows;
}

export async function findConnector(db: Db, operatorId: string, id: string): Promise<ConnectorRow | undefined> {
  return db<ConnectorRow>('connectors').where({ operator_id: operatorId, id }).first();
}

/** What one gateway call needs: the blueprint and field map, not the stored document. */
export async function findConnectorBlueprint(
  db: Db,
  operatorId: string,
  id: string,
): Promise<Pick<ConnectorRow, 'id' | 'provider' | 'blueprint' | 'schema_map'> | undefined> {
  return db<ConnectorRow>('connectors').where({ operator_id: operatorId, id }).first('id', 'provider', 'blueprint', 'schema_map');
}

export async function deleteConnector(db: Db, operatorId: string, id: string): Promise<boolean> {
  return (await db('connectors').where({ operator_id: operatorId, id }).delete()) > 0;
}
