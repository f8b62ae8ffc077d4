import type { Context } from 'koa';
import { putState } from '../../commands/ingestOne';
import { findState, listStates } from '../../db/queries/entities';
import { actorOf } from '../actor';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { operatorOf } from '../middleware/authenticate';
import type { InputOf } from '../endpoint';
import { requireEntity, requireTemplate } from './context';
import { type ExternalIdParams, type StateParams } from './schema';
import { stateRecord } from './presenters';

/** The body is `{ value: x }` (exactly that one field) or the value itself. */
function valueOf(body: unknown): unknown {
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const keys = Object.keys(body);
    if (keys.length === 1 && keys[0] === 'value') return (body as { value: unknown }).value;
  }
  return body;
}

/** `PUT /entities/:externalId/state/:key`: upserts one of the template's state keys. */
export async function putStateHandler(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof StateParams }>): Promise<void> {
  if (ctx.request.body === undefined) {
    throw new AppError(400, 'MISSING_FIELDS', 'Missing required fields: value', { details: [{ field: 'value', message: 'is required' }] });
  }
  const operatorId = operatorOf(ctx);
  const settings = await requireTemplate(deps, operatorId);
  const state = await putState(deps, {
    operatorId,
    template: settings.templateSchema,
    externalId: params.externalId,
    stateKey: params.key,
    value: valueOf(ctx.request.body),
    actor: actorOf(ctx),
  });
  ctx.body = { success: true, data: stateRecord(state) };
}

export async function listStatesHandler(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof ExternalIdParams }>): Promise<void> {
  const operatorId = operatorOf(ctx);
  const entity = await requireEntity(deps, operatorId, params.externalId);
  ctx.body = { success: true, data: (await listStates(deps.db, operatorId, entity.id)).map(stateRecord) };
}

export async function getStateHandler(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof StateParams }>): Promise<void> {
  const operatorId = operatorOf(ctx);
  const entity = await requireEntity(deps, operatorId, params.externalId);
  const state = await findState(deps.db, operatorId, entity.id, params.key);
  if (!state) throw new AppError(404, 'NOT_FOUND', `No state ${params.key} for entity ${params.externalId}`);
  ctx.body = { success: true, data: stateRecord(state) };
}
