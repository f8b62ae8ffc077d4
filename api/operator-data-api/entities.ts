import type { Context } from 'koa';
import { upsertEntity } from '../../commands/ingestOne';
import { eraseEntity } from '../../db/ingest/erasure';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { operatorOf } from '../middleware/authenticate';
import type { InputOf } from '../endpoint';
import { requireEntity, requireTemplate } from './context';
import { idempotencyKeyOf } from './idempotency';
import { type EntityBody, type ExternalIdParams } from './schema';
import { entityRecord } from './presenters';

/** `POST /entities`: create-or-update; 201 `created`, 200 `updated`, 200 `duplicate` for a repeated Idempotency-Key. */
export async function upsertEntityHandler(deps: AppDeps, ctx: Context, { body }: InputOf<{ body: typeof EntityBody }>): Promise<void> {
  const operatorId = operatorOf(ctx);
  const key = idempotencyKeyOf(ctx);
  const settings = await requireTemplate(deps, operatorId);
  const result = await upsertEntity(deps, { operatorId, template: settings.templateSchema, entity: body, idempotency: { key, route: 'POST /entities', body } });
  ctx.status = result.status;
  ctx.body = result.body;
}

/** `GET /entities/:externalId`: the one read that decrypts PII. */
export async function getEntityHandler(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof ExternalIdParams }>): Promise<void> {
  const entity = await requireEntity(deps, operatorOf(ctx), params.externalId);
  ctx.body = { success: true, data: entityRecord(deps.keyring, entity) };
}

/** `DELETE /entities/:externalId`: soft erasure (spec 3.4); idempotent. */
export async function eraseEntityHandler(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof ExternalIdParams }>): Promise<void> {
  const entity = await eraseEntity(deps.db, operatorOf(ctx), params.externalId);
  if (!entity) throw new AppError(404, 'ENTITY_NOT_FOUND', `No entity with externalId ${params.externalId}`);
  ctx.body = { success: true, data: { id: entity.id, externalId: entity.external_id, deleted: true } };
}
