import Koa from 'koa';
import getRawBody from 'raw-body';
import type { AppDeps } from '../../../api/deps';
import { requireTemplate } from '../../../commands/templates';
import { recordEvent } from '../../../commands/ingestOne';
import { prefixedId } from '../../../core/ids';
import { hotQuery, type HotStatement } from '../../../db/hot';
import { insertEvent } from '../../../db/ingest/events';
import { serveKoa } from './serveKoa';

interface Posted {
  externalId: string;
  eventType: string;
  data: Record<string, unknown>;
}

/** The bare INSERT with the entity resolved by the statement, as the platform must: no outbox row. */
const EVENT_ONLY: HotStatement = {
  name: 'bench-ladder-event-only',
  text: `INSERT INTO entity_events (id, operator_id, entity_id, event_type, data, created_at)
         SELECT $3, $1::uuid, id, $4::text, $5::jsonb, now() FROM entities WHERE operator_id = $1::uuid AND external_id = $2 AND deleted_at IS NULL`,
};

async function stored(deps: AppDeps, operatorId: string, event: Posted): Promise<string> {
  const outcome = await insertEvent(deps.db, operatorId, event);
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.id;
}

/**
 * Single-event ingest layer by layer, each rung one layer more than the one before: the gap between the bare INSERT
 * and the whole API, measured instead of guessed.
 */
const RUNGS = {
  /** The entity resolved by external id in the INSERT itself, through the platform's pool: no outbox row. */
  event: async (deps: AppDeps, operatorId: string, event: Posted) => {
    const id = prefixedId('eev');
    await hotQuery(deps.db, EVENT_ONLY, [operatorId, event.externalId, id, event.eventType, JSON.stringify(event.data)]);
    return id;
  },
  /** + the outbox row, written settled: the platform's statement for events nothing hears (deposits renamed, so none waits). */
  outbox: (deps: AppDeps, operatorId: string, event: Posted) => stored(deps, operatorId, { ...event, data: { ...event.data, type: 'bonus' } }),
  /** + deposits written pending, for the dispatcher's harm check: the platform's statement as it is, one per event. */
  statement: stored,
  /** + the events arriving together written by one statement (the process's EventAppender, as the API writes them). */
  grouped: async (deps: AppDeps, operatorId: string, event: Posted) => {
    const outcome = await deps.events.append(operatorId, event);
    if (!outcome.ok) throw new Error(outcome.error.message);
    return outcome.id;
  },
  /** + the use case the API's handler calls: the template from the settings cache, validation and sealing. */
  command: async (deps: AppDeps, operatorId: string, event: Posted) => {
    const template = await requireTemplate(deps, operatorId);
    const result = await recordEvent(deps, {
      operatorId,
      template,
      externalId: event.externalId,
      event: { eventType: event.eventType, data: event.data },
      idempotency: { key: undefined, route: '', body: null },
    });
    return result.data.id;
  },
} satisfies Record<string, (deps: AppDeps, operatorId: string, event: Posted) => Promise<string>>;

export type LadderRung = keyof typeof RUNGS;
export const LADDER = Object.keys(RUNGS) as LadderRung[];

/**
 * `bench:ingest`'s ablation: a bare Koa server in this process, on the API's own dependencies (its pool, caches and
 * keyring), serving the same `POST /operator-data-api/entities/:externalId/events` through one rung — without
 * authentication, rate limit, router, request validation, context or logging, which the whole API adds on top.
 */
export async function startLadderRung(rung: LadderRung, deps: AppDeps, operatorId: string) {
  const app = new Koa();
  app.use(async (ctx) => {
    const body = JSON.parse(await getRawBody(ctx.req, { encoding: 'utf8' })) as { eventType: string; data: Record<string, unknown> };
    const id = await RUNGS[rung](deps, operatorId, {
      externalId: decodeURIComponent(ctx.path.split('/')[3] ?? ''),
      eventType: body.eventType,
      data: body.data,
    });
    ctx.status = 201;
    ctx.body = { success: true, data: { id } };
  });
  return serveKoa(app);
}
