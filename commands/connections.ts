import type { Actor } from '../core/audit';
import { credentialsContext, type ConnectionCredentials } from '../core/gateway/outboundAuth';
import { prefixedId } from '../core/ids';
import { findConnection, insertConnection, updateConnection as updateConnectionRow, type ConnectionRow } from '../db/queries/connections';
import { findConnectorBlueprint } from '../db/queries/connectors';
import { recordAudit } from './audit';
import { connectorNotFound } from './connectors';
import type { CommandDeps } from './deps';
import { CommandError } from './errors';

export const connectionNotFound = (id: string) => new CommandError('CONNECTION_NOT_FOUND', `Connection ${id} not found`);

export interface CreateConnectionInput {
  operatorId: string;
  connectorId: string;
  name: string;
  credentials: ConnectionCredentials;
  /** Replaces the document's server URL; left out or null: the document's, which must then be absolute. */
  baseUrl?: string | null;
  /** Left out: active. */
  active?: boolean;
  /** Who creates it, as the audit event's actor. */
  actor: Actor;
}

export interface UpdateConnectionInput {
  operatorId: string;
  id: string;
  /** Each left out: unchanged. Credentials are replaced whole, never merged. */
  name?: string;
  credentials?: ConnectionCredentials;
  baseUrl?: string | null;
  active?: boolean;
  /** Who changes it, as the audit event's actor. */
  actor: Actor;
}

/** A connection must be able to reach its provider: without an absolute server URL in the document, baseUrl is required. */
async function requireReachable(deps: Pick<CommandDeps, 'db'>, operatorId: string, connectorId: string, baseUrl: string | null): Promise<void> {
  const connector = await findConnectorBlueprint(deps.db, operatorId, connectorId);
  if (!connector) throw connectorNotFound(connectorId);
  if (baseUrl === null && connector.blueprint !== null && connector.blueprint.serverUrl === null) {
    throw new CommandError('VALIDATION_FAILED', "baseUrl is required: the connector's OpenAPI document has no absolute server URL", [
      { field: 'baseUrl', message: 'is required for this connector' },
    ]);
  }
}

/** Sealed with the keyring under a context naming the operator and connection, so a ciphertext moved to another row does not open. */
const sealCredentials = (deps: Pick<CommandDeps, 'keyring'>, operatorId: string, connectionId: string, credentials: ConnectionCredentials) =>
  deps.keyring.encryptJson(credentials, credentialsContext(operatorId, connectionId));

/** Connects the operator to a provider through one of their connectors, with credentials stored sealed. */
export async function createConnection(deps: Pick<CommandDeps, 'db' | 'keyring'>, input: CreateConnectionInput): Promise<ConnectionRow> {
  const baseUrl = input.baseUrl ?? null;
  await requireReachable(deps, input.operatorId, input.connectorId, baseUrl);
  const id = prefixedId('conn');
  return deps.db.transaction(async (trx) => {
    const row = await insertConnection(trx, {
      id,
      operatorId: input.operatorId,
      connectorId: input.connectorId,
      name: input.name,
      credentialsCiphertext: sealCredentials(deps, input.operatorId, id, input.credentials),
      baseUrl,
      active: input.active ?? true,
    });
    await recordAudit(trx, {
      operatorId: input.operatorId,
      actor: input.actor,
      action: 'connection.created',
      target: { type: 'connection', id },
      before: null,
      after: row,
    });
    return row;
  });
}

/** Changes a connection; clearing its baseUrl is refused when the connector's document has no absolute server URL. */
export async function updateConnection(deps: Pick<CommandDeps, 'db' | 'keyring'>, input: UpdateConnectionInput): Promise<ConnectionRow> {
  const existing = await findConnection(deps.db, input.operatorId, input.id);
  if (!existing) throw connectionNotFound(input.id);
  if (input.baseUrl === null && existing.connector_id) await requireReachable(deps, input.operatorId, existing.connector_id, null);
  return deps.db.transaction(async (trx) => {
    const before = await findConnection(trx, input.operatorId, input.id, { forUpdate: true });
    const row =
      before &&
      (await updateConnectionRow(trx, input.operatorId, input.id, {
        name: input.name,
        baseUrl: input.baseUrl,
        active: input.active,
        credentialsCiphertext: input.credentials ? sealCredentials(deps, input.operatorId, input.id, input.credentials) : undefined,
      }));
    if (!before || !row) throw connectionNotFound(input.id);
    await recordAudit(trx, {
      operatorId: input.operatorId,
      actor: input.actor,
      action: 'connection.updated',
      target: { type: 'connection', id: input.id },
      before,
      after: row,
    });
    return row;
  });
}
