import type { Context } from 'koa';
import { recordEvent } from '../../commands/ingestOne';
import { listEvents } from '../../db/queries/entities';
import type { AppDeps } from '../deps';
import { operatorOf } from '../middleware/authenticate';
import type { InputOf } from '../endpoint';
import { requireEntity, requireTemplate } from './context';
import { idempotencyKeyOf } from './idempotency';
import { type EventBody, type EventsQuery, type ExternalIdParams } from './schema';

/** `POST /entities/:externalId/events`: appends one event; 201 `{ id }`, or the original id with `action: "duplicate"`. */
export async function recordEventHandler(
  deps: AppDeps,
  ctx: Context,
  { params, body }: InputOf<{ params: typeof ExternalIdParams; body: typeof EventBody }>,
): Promise<void> {
  const operatorId = operatorOf(ctx);
  const key = idempotencyKeyOf(ctx);
  const settings = await requireTemplate(deps, operatorId);
  const result = await recordEvent(deps, {
    operatorId,
    template: settings.templateSchema,
    externalId: params.externalId,
    event: body,
    idempotency: { key, route: `POST /entities/${params.externalId}/events`, body },
  });
  ctx.status = result.status;
  ctx.body = result.body;
}

/** `GET /entities/:externalId/events`: newest first, filtered by `type`, paged by `limit` (≤ 100) and `offset`. */
export async function listEventsHandler(
  deps: AppDeps,
  ctx: Context,
  { params, query }: InputOf<{ params: typeof ExternalIdParams; query: typeof EventsQuery }>,
): Promise<void> {
  const operatorId = operatorOf(ctx);
  const entity = await requireEntity(deps, operatorId, params.externalId);
  const { events, count } = await listEvents(deps.db, operatorId, entity.id, query);
  ctx.body = {
    success: true,
    data: events.map((event) => ({ id: event.id, event_type: event.event_type, data: event.data, created_at: event.created_at.toISOString() })),
    count,
  };
}
