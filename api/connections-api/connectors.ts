import { connectorNotFound, createConnector as addConnector, deleteConnector } from '../../commands/connectors';
import { findConnector, listConnectors } from '../../db/queries/connectors';
import { actorOf } from '../actor';
import { connectorDetail, connectorSummary } from './presenters';
import { CreateConnectorBody, IdParams } from './schema';
import { connections } from './area';

export const createConnector = connections.handler({ input: { body: CreateConnectorBody } }, async ({ deps, ctx, input: { body }, principal }) => {
  const row = await addConnector(deps, { operatorId: principal.operatorId, ...body, actor: actorOf(principal) });
  ctx.status = 201;
  ctx.body = { success: true, data: connectorDetail(row) };
});

export const listConnectorRecords = connections.handler({}, async ({ deps, ctx, principal }) => {
  const rows = await listConnectors(deps.db, principal.operatorId);
  ctx.body = { success: true, data: rows.map(connectorSummary) };
});

export const getConnector = connections.handler({ input: { params: IdParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  const row = await findConnector(deps.db, principal.operatorId, params.id);
  if (!row) throw connectorNotFound(params.id);
  ctx.body = { success: true, data: connectorDetail(row) };
});

export const removeConnector = connections.handler({ input: { params: IdParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  await deleteConnector(deps, { operatorId: principal.operatorId, id: params.id, actor: actorOf(principal) });
  ctx.body = { success: true, data: { id: params.id, deleted: true } };
});
