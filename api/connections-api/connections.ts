import type { Context } from 'koa';
import { prefixedId } from '../../core/ids';
import { credentialsContext } from '../../core/gateway/outboundAuth';
import { findConnection, insertConnection, listConnections, updateConnection } from '../../db/queries/connections';
import { findConnectorBlueprint } from '../../db/queries/connectors';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { operatorOf } from '../middleware/authenticate';
import type { InputOf } from '../endpoint';
import { connectorNotFound } from './connectors';
import { connectionRecord } from './presenters';
import { type CreateConnectionBody, type IdParams, type UpdateConnectionBody } from './schema';

const connectionNotFound = (id: string) => new AppError(404, 'CONNECTION_NOT_FOUND', `Connection ${id} not found`);

/** A connection must be able to reach its provider: without an absolute server URL in the document, baseUrl is required. */
async function requireReachable(deps: AppDeps, operatorId: string, connectorId: string, baseUrl: string | null): Promise<void> {
  const connector = await findConnectorBlueprint(deps.db, operatorId, connectorId);
  if (!connector) throw connectorNotFound(connectorId);
  if (baseUrl === null && connector.blueprint !== null && connector.blueprint.serverUrl === null) {
    throw new AppError(400, 'VALIDATION_FAILED', "baseUrl is required: the connector's OpenAPI document has no absolute server URL", {
      details: [{ field: 'baseUrl', message: 'is required for this connector' }],
    });
  }
}

export async function createConnection(deps: AppDeps, ctx: Context, { body }: InputOf<{ body: typeof CreateConnectionBody }>): Promise<void> {
  const operatorId = operatorOf(ctx);
  const baseUrl = body.baseUrl ?? null;
  await requireReachable(deps, operatorId, body.connectorId, baseUrl);
  const id = prefixedId('conn');
  const row = await insertConnection(deps.db, {
    id,
    operatorId,
    connectorId: body.connectorId,
    name: body.name,
    credentialsCiphertext: deps.keyring.encryptJson(body.credentials, credentialsContext(operatorId, id)),
    baseUrl,
    active: body.active ?? true,
  });
  ctx.status = 201;
  ctx.body = { success: true, data: connectionRecord(row) };
}

export async function listConnectionRecords(deps: AppDeps, ctx: Context): Promise<void> {
  const rows = await listConnections(deps.db, operatorOf(ctx));
  ctx.body = { success: true, data: rows.map(connectionRecord) };
}

export async function getConnection(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof IdParams }>): Promise<void> {
  const row = await findConnection(deps.db, operatorOf(ctx), params.id);
  if (!row) throw connectionNotFound(params.id);
  ctx.body = { success: true, data: connectionRecord(row) };
}

export async function patchConnection(
  deps: AppDeps,
  ctx: Context,
  { params, body }: InputOf<{ params: typeof IdParams; body: typeof UpdateConnectionBody }>,
): Promise<void> {
  const operatorId = operatorOf(ctx);
  const existing = await findConnection(deps.db, operatorId, params.id);
  if (!existing) throw connectionNotFound(params.id);
  if (body.baseUrl === null && existing.connector_id) await requireReachable(deps, operatorId, existing.connector_id, null);
  const row = await updateConnection(deps.db, operatorId, params.id, {
    name: body.name,
    baseUrl: body.baseUrl,
    active: body.active,
    credentialsCiphertext: body.credentials ? deps.keyring.encryptJson(body.credentials, credentialsContext(operatorId, params.id)) : undefined,
  });
  if (!row) throw connectionNotFound(params.id);
  ctx.body = { success: true, data: connectionRecord(row) };
}
