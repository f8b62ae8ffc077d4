import type { Context } from 'koa';
import { connectionNotFound, createConnection as addConnection, updateConnection } from '../../commands/connections';
import { findConnection, listConnections } from '../../db/queries/connections';
import { actorOf } from '../actor';
import type { AppDeps } from '../deps';
import { operatorOf } from '../middleware/authenticate';
import type { InputOf } from '../endpoint';
import { connectionRecord } from './presenters';
import { type CreateConnectionBody, type IdParams, type UpdateConnectionBody } from './schema';

export async function createConnection(deps: AppDeps, ctx: Context, { body }: InputOf<{ body: typeof CreateConnectionBody }>): Promise<void> {
  const row = await addConnection(deps, { operatorId: operatorOf(ctx), ...body, actor: actorOf(ctx) });
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
  const row = await updateConnection(deps, { operatorId: operatorOf(ctx), id: params.id, ...body, actor: actorOf(ctx) });
  ctx.body = { success: true, data: connectionRecord(row) };
}
