import { requireTemplate } from '../../commands/templates';
import { putState } from '../../commands/ingestOne';
import { findState, listStates } from '../../db/queries/entities';
import { actorOf } from '../actor';
import { AppError } from '../errors';
import { data } from './area';
import { requireEntity } from './context';
import { ExternalIdParams, StateParams } from './schema';
import { stateRecord } from './presenters';

/** The body is `{ value: x }` (exactly that one field) or the value itself. */
function valueOf(body: unknown): unknown {
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const keys = Object.keys(body);
    if (keys.length === 1 && keys[0] === 'value') return (body as { value: unknown }).value;
  }
  return body;
}

/**
 * `PUT /entities/:externalId/state/:key`: upserts one of the template's state keys. The body is read raw: any JSON
 * value is a state value, and only its absence is refused (`{}` is a value, not a missing one).
 */
export const putStateHandler = data.handler({ input: { params: StateParams }, raw: ['body'] }, async ({ deps, ctx, input: { params }, principal, raw }) => {
  if (raw.body === undefined) {
    throw new AppError(400, 'MISSING_FIELDS', 'Missing required fields: value', { details: [{ field: 'value', message: 'is required' }] });
  }
  const { operatorId } = principal;
  const template = await requireTemplate(deps, operatorId);
  const state = await putState(deps, {
    operatorId,
    template,
    externalId: params.externalId,
    stateKey: params.key,
    value: valueOf(raw.body),
    actor: actorOf(principal),
  });
  ctx.body = { success: true, data: stateRecord(state) };
});

export const listStatesHandler = data.handler({ input: { params: ExternalIdParams } }, async ({ deps, ctx, input: { params }, principal: { operatorId } }) => {
  const entity = await requireEntity(deps, operatorId, params.externalId);
  ctx.body = { success: true, data: (await listStates(deps.db, operatorId, entity.id)).map(stateRecord) };
});

export const getStateHandler = data.handler({ input: { params: StateParams } }, async ({ deps, ctx, input: { params }, principal: { operatorId } }) => {
  const entity = await requireEntity(deps, operatorId, params.externalId);
  const state = await findState(deps.db, operatorId, entity.id, params.key);
  if (!state) throw new AppError(404, 'NOT_FOUND', `No state ${params.key} for entity ${params.externalId}`);
  ctx.body = { success: true, data: stateRecord(state) };
});
