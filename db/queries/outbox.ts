import type { Knex } from 'knex';
import type { InternalEvent } from '../../core/events';
import { hotQuery, type HotStatement } from '../hot';

type Runner = Knex | Knex.Transaction;

/** The automation whose run is writing (the transaction-local `app.origin_automation`), as the column default reads it. */
export const ORIGIN = "nullif(current_setting('app.origin_automation', true), '')";

const APPEND_EVENTS: HotStatement = {
  name: 'append_outbox_events',
  text: `INSERT INTO outbox_events (id, operator_id, event, entity_id, payload, occurred_at, dispatched_at)
         SELECT u.id, u.operator_id, u.event, u.entity_id, u.payload, u.occurred_at,
                CASE WHEN outbox_event_heard(u.operator_id, u.event, u.occurred_at, ${ORIGIN}) THEN NULL ELSE now() END
           FROM unnest($1::text[], $2::uuid[], $3::text[], $4::text[], $5::jsonb[], $6::timestamptz[]) AS u(id, operator_id, event, entity_id, payload, occurred_at)`,
};

/**
 * Appends internal events to the outbox in one statement built from arrays (`unnest`), so thousands
 * of events cost a handful of bind parameters. Call it with the transaction that makes the change,
 * so an event exists exactly when its change does. An event no automation can fire is written already
 * dispatched (`outbox_event_heard`), so it wakes no dispatcher.
 */
export async function appendOutboxEvents(trx: Runner, events: InternalEvent[]): Promise<void> {
  if (events.length === 0) return;
  await hotQuery(trx, APPEND_EVENTS, [
    events.map((event) => event.id),
    events.map((event) => event.operatorId),
    events.map((event) => event.event),
    events.map((event) => event.entity?.id ?? null) as string[],
    events.map((event) => JSON.stringify(event)),
    events.map((event) => event.occurredAt),
  ]);
}

export interface OutboxRecord {
  seq: string;
  event: InternalEvent;
  dispatchedAt: Date | null;
}

/**
 * Reads outbox rows after `afterSeq` in order, with every payload in the internal-event shape
 * (`{ id, event, operatorId, occurredAt, entity, data }`), thin rows joined to their recorded event.
 * Pass `operatorId` to read one tenant's events only, `claimed` to read exactly those rows and only within
 * those tenants (the outbox dispatcher's claim spans tenants).
 */
export async function readOutboxEvents(
  db: Runner,
  options: { afterSeq?: string; limit: number; operatorId?: string; pendingOnly?: boolean; claimed?: { seqs: string[]; operatorIds: string[] } },
): Promise<OutboxRecord[]> {
  const result = await db.raw<{ rows: Array<{ seq: string; payload: InternalEvent; dispatched_at: Date | null }> }>(
    `SELECT o.seq, o.dispatched_at,
            coalesce(o.payload, jsonb_build_object(
              'id', o.id, 'event', o.event, 'operatorId', o.operator_id,
              'occurredAt', to_char(o.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              'entity', jsonb_build_object('id', n.id, 'externalId', n.external_id, 'entityType', n.entity_type),
              'data', coalesce(e.data, '{"_redacted": true}'::jsonb) || CASE WHEN jsonb_exists(e.data, '_redacted') THEN '{}'::jsonb ELSE jsonb_build_object('eventId', o.source_event_id) END)) AS payload
       FROM outbox_events o
       LEFT JOIN entity_events e ON o.source_event_id IS NOT NULL AND e.id = o.source_event_id AND e.operator_id = o.operator_id
       LEFT JOIN entities n ON o.source_event_id IS NOT NULL AND n.id = o.entity_id AND n.operator_id = o.operator_id
      WHERE o.seq > ? ${options.operatorId ? 'AND o.operator_id = ?' : ''} ${options.pendingOnly ? 'AND o.dispatched_at IS NULL' : ''}
            ${options.claimed ? 'AND o.seq = ANY(?::bigint[]) AND o.operator_id = ANY(?::uuid[])' : ''}
      ORDER BY o.seq
      LIMIT ?`,
    [
      options.afterSeq ?? '0',
      ...(options.operatorId ? [options.operatorId] : []),
      ...(options.claimed ? [options.claimed.seqs, options.claimed.operatorIds] : []),
      options.limit,
    ],
  );
  return result.rows.map((row) => ({ seq: String(row.seq), event: row.payload, dispatchedAt: row.dispatched_at }));
}
