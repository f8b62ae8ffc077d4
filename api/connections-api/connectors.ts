import type { Context } from 'koa';
import { prefixedId } from '../../core/ids';
import type { Blueprint } from '../../core/gateway/blueprint';
import { InvalidOpenApiError, loadOpenApiDocument } from '../../core/gateway/openapiDocument';
import { ambiguousProviderFields } from '../../core/gateway/schemaMap';
import { deleteConnector, findConnector, insertConnector, listConnectors } from '../../db/queries/connectors';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { operatorOf } from '../middleware/authenticate';
import type { InputOf } from '../endpoint';
import { connectorDetail, connectorSummary } from './presenters';
import { type CreateConnectorBody, type IdParams } from './schema';

export const connectorNotFound = (id: string) => new AppError(404, 'CONNECTOR_NOT_FOUND', `Connector ${id} not found`);

/** Parses and validates the document; a broken one is 400 `INVALID_OPENAPI` listing what is wrong. */
async function documentOf(openapi: unknown): Promise<{ document: Record<string, unknown> | null; blueprint: Blueprint | null }> {
  if (openapi === undefined || openapi === null) return { document: null, blueprint: null };
  try {
    return await loadOpenApiDocument(openapi);
  } catch (error) {
    if (error instanceof InvalidOpenApiError) {
      throw new AppError(400, 'INVALID_OPENAPI', error.message, { details: error.problems.map((message) => ({ field: 'openapi', message })) });
    }
    throw error;
  }
}

export async function createConnector(deps: AppDeps, ctx: Context, { body }: InputOf<{ body: typeof CreateConnectorBody }>): Promise<void> {
  const schemaMap = body.schemaMap ?? {};
  const ambiguous = ambiguousProviderFields(schemaMap);
  if (ambiguous.length > 0) {
    throw new AppError(400, 'VALIDATION_FAILED', `schemaMap maps several canonical fields to the same provider field: ${ambiguous.join(', ')}`, {
      details: ambiguous.map((field) => ({ field: 'schemaMap', message: `provider field ${field} is used more than once` })),
    });
  }
  const { document, blueprint } = await documentOf(body.openapi);
  const row = await insertConnector(deps.db, {
    id: prefixedId('cnr'),
    operatorId: operatorOf(ctx),
    name: body.name,
    provider: body.provider,
    openapi: document,
    blueprint,
    schemaMap,
  });
  ctx.status = 201;
  ctx.body = { success: true, data: connectorDetail(row) };
}

export async function listConnectorRecords(deps: AppDeps, ctx: Context): Promise<void> {
  const rows = await listConnectors(deps.db, operatorOf(ctx));
  ctx.body = { success: true, data: rows.map(connectorSummary) };
}

export async function getConnector(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof IdParams }>): Promise<void> {
  const row = await findConnector(deps.db, operatorOf(ctx), params.id);
  if (!row) throw connectorNotFound(params.id);
  ctx.body = { success: true, data: connectorDetail(row) };
}

export async function removeConnector(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof IdParams }>): Promise<void> {
  if (!(await deleteConnector(deps.db, operatorOf(ctx), params.id))) throw connectorNotFound(params.id);
  ctx.body = { success: true, data: { id: params.id, deleted: true } };
}
