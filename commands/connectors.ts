import type { Actor } from '../core/audit';
import type { Blueprint } from '../core/gateway/blueprint';
import { InvalidOpenApiError, loadOpenApiDocument } from '../core/gateway/openapiDocument';
import { ambiguousProviderFields, type SchemaMap } from '../core/gateway/schemaMap';
import { prefixedId } from '../core/ids';
import { deleteConnector as deleteConnectorRow, findConnector, insertConnector, type ConnectorRow } from '../db/queries/connectors';
import { recordAudit } from './audit';
import type { CommandDeps } from './deps';
import { CommandError } from './errors';

export const connectorNotFound = (id: string) => new CommandError('CONNECTOR_NOT_FOUND', `Connector ${id} not found`);

export interface CreateConnectorInput {
  operatorId: string;
  name: string;
  provider: string;
  /** OpenAPI 3.x or Swagger 2.0, as an object or JSON/YAML text; left out or null: a connector without a document. */
  openapi?: string | Record<string, unknown> | null;
  /** Canonical field → provider field; left out: none. */
  schemaMap?: SchemaMap;
  /** Who creates it, as the audit event's actor. */
  actor: Actor;
}

export interface ConnectorRef {
  operatorId: string;
  id: string;
  /** Who acts on it, as the audit event's actor. */
  actor: Actor;
}

/** Parses and validates the document; a broken one is refused as `INVALID_OPENAPI` listing what is wrong. */
async function documentOf(openapi: unknown): Promise<{ document: Record<string, unknown> | null; blueprint: Blueprint | null }> {
  if (openapi === undefined || openapi === null) return { document: null, blueprint: null };
  try {
    return await loadOpenApiDocument(openapi);
  } catch (error) {
    if (error instanceof InvalidOpenApiError) {
      throw new CommandError(
        'INVALID_OPENAPI',
        error.message,
        error.problems.map((message) => ({ field: 'openapi', message })),
      );
    }
    throw error;
  }
}

/**
 * Registers a provider's API: its document is compiled once into the blueprint every gateway call reads. A schema
 * map sending two canonical fields to one provider field is refused, since the response could not be mapped back.
 */
export async function createConnector(deps: Pick<CommandDeps, 'db'>, input: CreateConnectorInput): Promise<ConnectorRow> {
  const schemaMap = input.schemaMap ?? {};
  const ambiguous = ambiguousProviderFields(schemaMap);
  if (ambiguous.length > 0) {
    throw new CommandError(
      'VALIDATION_FAILED',
      `schemaMap maps several canonical fields to the same provider field: ${ambiguous.join(', ')}`,
      ambiguous.map((field) => ({ field: 'schemaMap', message: `provider field ${field} is used more than once` })),
    );
  }
  const { document, blueprint } = await documentOf(input.openapi);
  const id = prefixedId('cnr');
  return deps.db.transaction(async (trx) => {
    const row = await insertConnector(trx, {
      id,
      operatorId: input.operatorId,
      name: input.name,
      provider: input.provider,
      openapi: document,
      blueprint,
      schemaMap,
    });
    await recordAudit(trx, {
      operatorId: input.operatorId,
      actor: input.actor,
      action: 'connector.created',
      target: { type: 'connector', id },
      before: null,
      after: row,
    });
    return row;
  });
}

/** Deletes one of the operator's connectors. Its connections stay, their connector unset, so no call goes through them. */
export async function deleteConnector(deps: Pick<CommandDeps, 'db'>, input: ConnectorRef): Promise<void> {
  await deps.db.transaction(async (trx) => {
    const before = await findConnector(trx, input.operatorId, input.id);
    if (!before || !(await deleteConnectorRow(trx, input.operatorId, input.id))) throw connectorNotFound(input.id);
    await recordAudit(trx, {
      operatorId: input.operatorId,
      actor: input.actor,
      action: 'connector.deleted',
      target: { type: 'connector', id: input.id },
      before,
      after: null,
    });
  });
}
