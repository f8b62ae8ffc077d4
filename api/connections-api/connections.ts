import { connectionNotFound, createConnection as addConnection, updateConnection } from '../../commands/connections';
import { findConnection, listConnections } from '../../db/queries/connections';
import { actorOf } from '../actor';
import { connectionRecord } from './presenters';
import { CreateConnectionBody, IdParams, UpdateConnectionBody } from './schema';
import { connections } from './area';

export const createConnection = connections.handler({ input: { body: CreateConnectionBody } }, async ({ deps, ctx, input: { body }, principal }) => {
  const row = await addConnection(deps, { operatorId: principal.operatorId, ...body, actor: actorOf(principal) });
  ctx.status = 201;
  ctx.body = { success: true, data: connectionRecord(row) };
});

export const listConnectionRecords = connections.handler({}, async ({ deps, ctx, principal }) => {
  const rows = await listConnections(deps.db, principal.operatorId);
  ctx.body = { success: true, data: rows.map(connectionRecord) };
});

export const getConnection = connections.handler({ input: { params: IdParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  const row = await findConnection(deps.db, principal.operatorId, params.id);
  if (!row) throw connectionNotFound(params.id);
  ctx.body = { success: true, data: connectionRecord(row) };
});

export const patchConnection = connections.handler(
  { input: { params: IdParams, body: UpdateConnectionBody } },
  async ({ deps, ctx, input: { params, body }, principal }) => {
    const row = await updateConnection(deps, { operatorId: principal.operatorId, id: params.id, ...body, actor: actorOf(principal) });
    ctx.body = { success: true, data: connectionRecord(row) };
  },
);
