import type { Knex } from 'knex';
import { prefixedId } from '../../core/ids';
import type { EventWrite } from '../../core/ingestItems';
import { jsonbParam, jsonText } from '../../core/knownJson';
import { hotQuery, type HotStatement } from '../hot';
import type { Db } from '../knex';
import { HARM_CANDIDATE } from '../queries/harmIndicators';
import { ORIGIN } from '../queries/outbox';
import { erased, notFound, type Indexed, type ItemOutcome } from './results';

/**
 * Finds each item's entity, appends the events of live entities and their thin `entity_event.<type>`
 * outbox rows (payload read through `source_event_id`), all in one statement: one round trip and one
 * atomic write whether it carries one event or 5,000, in item order. Answers a row only for an item refused (its
 * position from 1, and whether its entity was found, then erased): a chunk of 1,000 written events reads back nothing.
 *
 * An outbox row that no automation can fire (`outbox_events_heard`, the batch's form of `outbox_event_heard`: none
 * listens to its name, or none of their filters' demanded values is in its data, db/queries/automationTriggerKeys.ts) is
 * written already dispatched, so it wakes no dispatcher: an automation fires for the events whose write began after its
 * activation (or its edit) committed. A counted deposit's row stays pending anyway: the dispatcher checks it for harm
 * indicators (commands/compliance/harm.ts).
 *
 * `occurred_at` is the event's own time (`data.timestamp`, validated in core/occurrence.ts), else its arrival;
 * `created_at` is always the arrival.
 */
const INSERT_EVENTS: HotStatement = {
  name: 'insert-events-v8',
  text: `WITH input AS (
           SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::jsonb[], $6::text[], $7::timestamptz[]) WITH ORDINALITY
                    AS u(event_id, external_id, event_type, data, outbox_id, occurred_at, ord)
         ), matched AS (
           SELECT input.*, e.id AS entity_id, e.deleted_at
             FROM input LEFT JOIN entities e ON e.operator_id = $1::uuid AND e.external_id = input.external_id
         ), inserted AS (
           INSERT INTO entity_events (id, operator_id, entity_id, event_type, data, created_at, occurred_at)
           SELECT event_id, $1::uuid, entity_id, event_type, data, now(), coalesce(occurred_at, now()) FROM matched
            WHERE entity_id IS NOT NULL AND deleted_at IS NULL ORDER BY ord
           RETURNING id
         ), heard AS (
           SELECT h.ord, h.heard FROM outbox_events_heard($1::uuid, now(), ${ORIGIN},
                    array(SELECT 'entity_event.' || t.type FROM unnest($4::text[]) WITH ORDINALITY AS t(type, n) ORDER BY t.n), $5::jsonb[]) h
         ), outbox AS (
           INSERT INTO outbox_events (id, operator_id, event, entity_id, source_event_id, occurred_at, dispatched_at)
           SELECT m.outbox_id, $1::uuid, 'entity_event.' || m.event_type, m.entity_id, m.event_id, now(),
                  CASE WHEN ${HARM_CANDIDATE('m.event_type', 'm.data')} OR h.heard THEN NULL ELSE now() END
             FROM matched m JOIN inserted i ON i.id = m.event_id JOIN heard h ON h.ord = m.ord ORDER BY m.ord
         )
         SELECT ord, entity_id IS NOT NULL AS found FROM matched WHERE entity_id IS NULL OR deleted_at IS NOT NULL`,
};

/** The same write for one event without arrays, ordering or joins: the single-event API's statement. */
const INSERT_EVENT: HotStatement = {
  name: 'insert-event-v5',
  text: `WITH entity AS (
           SELECT id, deleted_at FROM entities WHERE operator_id = $1::uuid AND external_id = $2
         ), inserted AS (
           INSERT INTO entity_events (id, operator_id, entity_id, event_type, data, created_at, occurred_at)
           SELECT $3, $1::uuid, id, $4::text, $5::jsonb, now(), coalesce($7::timestamptz, now()) FROM entity WHERE deleted_at IS NULL
           RETURNING id, entity_id
         ), outbox AS (
           INSERT INTO outbox_events (id, operator_id, event, entity_id, source_event_id, occurred_at, dispatched_at)
           SELECT $6, $1::uuid, 'entity_event.' || $4::text, entity_id, id, now(),
                  CASE WHEN ${HARM_CANDIDATE('$4::text', '$5::jsonb')}
                         OR outbox_event_heard($1::uuid, 'entity_event.' || $4::text, now(), ${ORIGIN}, $5::jsonb) THEN NULL ELSE now() END
             FROM inserted
         )
         SELECT (SELECT true FROM entity) AS found, coalesce((SELECT deleted_at IS NOT NULL FROM entity), false) AS erased`,
};

/**
 * One event in one prepared statement: the single-event API's hot path (no arrays to build or read back). A large
 * event's data goes as the JSONB bytes its body worker wrote (core/knownJson.ts).
 */
export async function insertEvent(runner: Db | Knex.Transaction, operatorId: string, write: EventWrite, index = 0): Promise<ItemOutcome> {
  const id = prefixedId('eev');
  const [row] = await hotQuery<{ found: boolean | null; erased: boolean }>(runner, INSERT_EVENT, [
    operatorId,
    write.externalId,
    id,
    write.eventType,
    jsonbParam(write.data),
    prefixedId('evt'),
    write.occurredAt ?? null,
  ]);
  if (!row?.found) return { index, externalId: write.externalId, ok: false, error: notFound(write.externalId) };
  if (row.erased) return { index, externalId: write.externalId, ok: false, error: erased(write.externalId) };
  return { index, externalId: write.externalId, ok: true, id };
}

/**
 * Appends events (spec 4.2) and writes `entity_event.<type>` to the outbox in the same statement; unknown and
 * erased entities are item errors. Runs alone (one autocommitted statement) or inside the caller's transaction.
 */
export async function insertEvents(runner: Db | Knex.Transaction, operatorId: string, items: Array<Indexed<EventWrite>>): Promise<ItemOutcome[]> {
  if (items.length === 0) return [];
  if (items.length === 1) return [await insertEvent(runner, operatorId, items[0]!.write, items[0]!.index)];
  const ids = items.map(() => prefixedId('eev'));
  const refused = await hotQuery<{ ord: string; found: boolean }>(runner, INSERT_EVENTS, [
    operatorId,
    ids,
    items.map((item) => item.write.externalId),
    items.map((item) => item.write.eventType),
    items.map((item) => jsonText(item.write.data)),
    items.map(() => prefixedId('evt')),
    items.map((item) => item.write.occurredAt ?? null),
  ]);
  const foundAt = new Map(refused.map((row) => [Number(row.ord) - 1, row.found]));
  return items.map(({ index, write }, position): ItemOutcome => {
    const found = foundAt.get(position);
    if (found === false) return { index, externalId: write.externalId, ok: false, error: notFound(write.externalId) };
    if (found === true) return { index, externalId: write.externalId, ok: false, error: erased(write.externalId) };
    return { index, externalId: write.externalId, ok: true, id: ids[position]! };
  });
}
