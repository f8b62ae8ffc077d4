import type { Context } from 'koa';
import { connectorNotFound, createConnector as addConnector, deleteConnector } from '../../commands/connectors';
import { findConnector, listConnectors } from '../../db/queries/connectors';
import { actorOf } from '../actor';
import type { AppDeps } from '../deps';
import { operatorOf } from '../middleware/authenticate';
import type { InputOf } from '../endpoint';
import { connectorDetail, connectorSummary } from './presenters';
import { type CreateConnectorBody, type IdParams } from './schema';

export async function createConnector(deps: AppDeps, ctx: Context, { body }: InputOf<{ body: typeof CreateConnectorBody }>): Promise<void> {
  const row = await addConnector(deps, { operatorId: operatorOf(ctx), ...body, actor: actorOf(ctx) });
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
  await deleteConnector(deps, { operatorId: operatorOf(ctx), id: params.id, actor: actorOf(ctx) });
  ctx.body = { success: true, data: { id: params.id, deleted: true } };
}
