import type { Knex } from 'knex';
import type { Context } from 'koa';
import { prepareItem, writeItem } from '../../commands/ingest';
import type { Db } from '../../db/knex';
import { listEvents } from '../../db/queries/entities';
import type { AppDeps } from '../deps';
import { operatorOf } from '../middleware/authenticate';
import type { InputOf } from '../endpoint';
import { itemErrorToAppError, requireEntity, requireTemplate } from './context';
import { idempotencyKeyOf, withIdempotency } from './idempotency';
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
  const prepared = prepareItem('events', settings.templateSchema, deps.keyring, operatorId, { ...body, externalId: params.externalId });
  if (!prepared.ok) throw itemErrorToAppError(prepared.error);

  const write = async (runner: Db | Knex.Transaction) => {
    const outcome = await writeItem('events', runner, operatorId, prepared.write);
    if (!outcome.ok) throw itemErrorToAppError(outcome.error);
    return { status: 201, body: { success: true as const, data: { id: outcome.id } } };
  };
  // Without a key the write is one autocommitted statement; with one, the key's claim joins it in a transaction.
  const result = key
    ? await deps.db.transaction((trx) => withIdempotency(trx, { operatorId, key, route: `POST /entities/${params.externalId}/events`, body }, () => write(trx)))
    : await write(deps.db);
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
