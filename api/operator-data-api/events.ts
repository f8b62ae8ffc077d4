import { requireTemplate } from '../../commands/templates';
import { recordEvent } from '../../commands/ingestOne';
import { listEvents } from '../../db/queries/entities';
import { OUTCOME_STATUS } from '../commandAnswers';
import { data } from './area';
import { requireEntity } from './context';
import { idempotencyKeyOf } from './idempotency';
import { writtenRecord } from './presenters';
import { EventBody, EventsQuery, ExternalIdParams } from './schema';

/** `POST /entities/:externalId/events`: appends one event; 201 `{ id }`, or the original id with `action: "duplicate"`. */
export const recordEventHandler = data.handler(
  { input: { params: ExternalIdParams, body: EventBody } },
  async ({ deps, ctx, input: { params, body }, principal: { operatorId } }) => {
    const key = idempotencyKeyOf(ctx);
    const template = await requireTemplate(deps, operatorId);
    const result = await recordEvent(deps, {
      operatorId,
      template,
      externalId: params.externalId,
      event: body,
      idempotency: { key, route: `POST /entities/${params.externalId}/events`, body },
    });
    ctx.status = OUTCOME_STATUS[result.outcome];
    ctx.body = { success: true, data: writtenRecord(result, 'duplicate') };
  },
);

/** `GET /entities/:externalId/events`: newest first, filtered by `type`, paged by `limit` (≤ 100) and `offset`. */
export const listEventsHandler = data.handler(
  { input: { params: ExternalIdParams, query: EventsQuery } },
  async ({ deps, ctx, input: { params, query }, principal: { operatorId } }) => {
    const entity = await requireEntity(deps, operatorId, params.externalId);
    const { events, count } = await listEvents(deps.db, operatorId, entity.id, query);
    ctx.body = {
      success: true,
      data: events.map((event) => ({ id: event.id, event_type: event.event_type, data: event.data, created_at: event.created_at.toISOString() })),
      count,
    };
  },
);
