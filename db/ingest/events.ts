import type { Knex } from 'knex';
import { prefixedId } from '../../core/ids';
import type { EventWrite } from '../../core/ingestItems';
import { findEntitiesByExternalIds } from '../queries/entities';
import { appendRecordedEventOutbox } from '../queries/outbox';
import { erased, notFound, type Indexed, type ItemOutcome } from './results';

/**
 * Appends events in one set-based INSERT from arrays (`unnest`), whatever their number, and writes
 * `entity_event.<type>` to the outbox in the same transaction. Unknown and erased entities are item errors.
 */
export async function insertEvents(trx: Knex.Transaction, operatorId: string, items: Array<Indexed<EventWrite>>): Promise<ItemOutcome[]> {
  const entities = await findEntitiesByExternalIds(trx, operatorId, [...new Set(items.map((item) => item.write.externalId))]);
  const outcomes: ItemOutcome[] = [];
  const rows: Array<{ id: string; entityId: string; write: EventWrite }> = [];
  for (const { index, write } of items) {
    const entity = entities.get(write.externalId);
    if (!entity) outcomes.push({ index, externalId: write.externalId, ok: false, error: notFound(write.externalId) });
    else if (entity.deleted_at) outcomes.push({ index, externalId: write.externalId, ok: false, error: erased(write.externalId) });
    else {
      const id = prefixedId('eev');
      rows.push({ id, entityId: entity.id, write });
      outcomes.push({ index, externalId: write.externalId, ok: true, id });
    }
  }
  if (rows.length === 0) return outcomes;
  const now = new Date();
  await trx.raw(
    `INSERT INTO entity_events (id, operator_id, entity_id, event_type, data, created_at)
     SELECT u.id, ?, u.entity_id, u.event_type, u.data, ?
       FROM unnest(?::text[], ?::text[], ?::text[], ?::jsonb[]) AS u(id, entity_id, event_type, data)`,
    [operatorId, now, rows.map((r) => r.id), rows.map((r) => r.entityId), rows.map((r) => r.write.eventType), rows.map((r) => JSON.stringify(r.write.data))],
  );
  await appendRecordedEventOutbox(
    trx,
    operatorId,
    rows.map((r) => ({ outboxId: prefixedId('evt'), eventId: r.id, entityId: r.entityId, eventType: r.write.eventType, occurredAt: now })),
  );
  return outcomes;
}
