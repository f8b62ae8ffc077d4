import { requireTemplate } from '../../commands/templates';
import { upsertEntity } from '../../commands/ingestOne';
import { eraseEntity } from '../../commands/erasure';
import { OUTCOME_STATUS } from '../commandAnswers';
import { data } from './area';
import { requireEntity } from './context';
import { idempotencyKeyOf } from './idempotency';
import { EntityBody, ExternalIdParams } from './schema';
import { entityRecord, writtenRecord } from './presenters';

/** `POST /entities`: create-or-update; 201 `created`, 200 `updated`, 200 `duplicate` for a repeated Idempotency-Key. */
export const upsertEntityHandler = data.handler({ input: { body: EntityBody } }, async ({ deps, ctx, input: { body }, principal }) => {
  const { operatorId } = principal;
  const key = idempotencyKeyOf(ctx);
  const template = await requireTemplate(deps, operatorId);
  const result = await upsertEntity(deps, { operatorId, template, entity: body, idempotency: { key, route: 'POST /entities', body } });
  ctx.status = OUTCOME_STATUS[result.outcome];
  ctx.body = { success: true, data: writtenRecord(result, 'always') };
});

/** `GET /entities/:externalId`: the one read that decrypts PII. */
export const getEntityHandler = data.handler({ input: { params: ExternalIdParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  const entity = await requireEntity(deps, principal.operatorId, params.externalId);
  ctx.body = { success: true, data: entityRecord(deps.keyring, entity) };
});

/** `DELETE /entities/:externalId`: soft erasure (spec 3.4); idempotent. */
export const eraseEntityHandler = data.handler({ input: { params: ExternalIdParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  const entity = await eraseEntity(deps, { operatorId: principal.operatorId, externalId: params.externalId });
  ctx.body = { success: true, data: { id: entity.id, externalId: entity.external_id, deleted: true } };
});
