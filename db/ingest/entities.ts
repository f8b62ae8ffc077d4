import type { Knex } from 'knex';
import { internalEvent } from '../../core/events';
import { prefixedId } from '../../core/ids';
import type { EntityWrite } from '../../core/ingestItems';
import { findEntitiesByExternalIds } from '../queries/entities';
import { appendOutboxEvents } from '../queries/outbox';
import { erased, type Indexed, type ItemOutcome } from './results';

interface Merged {
  entityType: string;
  externalId: string;
  data: Record<string, unknown>;
  indexes: number[];
}

/**
 * Copies `from`'s fields onto `into` as data. Object.assign would assign a `__proto__` field, replacing `into`'s
 * prototype and losing the field (docs/security.md "`__proto__` keys").
 */
function mergeFields(into: Record<string, unknown>, from: Record<string, unknown>): void {
  for (const [field, value] of Object.entries(from)) Object.defineProperty(into, field, { value, enumerable: true, writable: true, configurable: true });
}

/** Items naming the same externalId are merged in order, so one statement never touches a row twice. */
function mergeByExternalId(items: Array<Indexed<EntityWrite>>, outcomes: ItemOutcome[]): Map<string, Merged> {
  const merged = new Map<string, Merged>();
  for (const { index, write } of items) {
    const existing = merged.get(write.externalId);
    if (!existing) {
      merged.set(write.externalId, { ...write, data: { ...write.data }, indexes: [index] });
    } else if (existing.entityType !== write.entityType) {
      outcomes.push({
        index,
        externalId: write.externalId,
        ok: false,
        error: { code: 'VALIDATION_FAILED', message: 'entityType differs from an earlier item with the same externalId' },
      });
    } else {
      mergeFields(existing.data, write.data);
      existing.indexes.push(index);
    }
  }
  return merged;
}

/**
 * Creates or updates entities in one set-based upsert (new data is merged over the stored data) and
 * writes `entity.created` / `entity.updated` to the outbox in the same transaction. Erased entities
 * stay erased (`ENTITY_ERASED`); an entity keeps its type (`VALIDATION_FAILED`).
 */
export async function upsertEntities(trx: Knex.Transaction, operatorId: string, items: Array<Indexed<EntityWrite>>): Promise<ItemOutcome[]> {
  const outcomes: ItemOutcome[] = [];
  const merged = mergeByExternalId(items, outcomes);
  const existing = await findEntitiesByExternalIds(trx, operatorId, [...merged.keys()], { forUpdate: true });
  const writable: Merged[] = [];
  for (const item of merged.values()) {
    const row = existing.get(item.externalId);
    const reject = (error: ItemOutcome & { ok: false }) => item.indexes.forEach((index) => outcomes.push({ ...error, index }));
    if (row?.deleted_at) reject({ index: 0, externalId: item.externalId, ok: false, error: erased(item.externalId) });
    else if (row && row.entity_type !== item.entityType) {
      reject({ index: 0, externalId: item.externalId, ok: false, error: { code: 'VALIDATION_FAILED', message: `entityType must stay ${row.entity_type}` } });
    } else writable.push(item);
  }
  if (writable.length === 0) return outcomes;

  const result = await trx.raw<{ rows: Array<{ id: string; external_id: string; entity_type: string; inserted: boolean; data: Record<string, unknown> }> }>(
    `INSERT INTO entities (id, operator_id, entity_type, external_id, data)
     SELECT u.id, ?, u.entity_type, u.external_id, u.data
       FROM unnest(?::text[], ?::text[], ?::text[], ?::jsonb[]) AS u(id, entity_type, external_id, data)
     ON CONFLICT (operator_id, external_id) DO UPDATE
        SET data = entities.data || EXCLUDED.data, updated_at = now()
      WHERE entities.deleted_at IS NULL
     RETURNING id, external_id, entity_type, data, (xmax = 0) AS inserted`,
    [
      operatorId,
      writable.map(() => prefixedId('ent')),
      writable.map((i) => i.entityType),
      writable.map((i) => i.externalId),
      writable.map((i) => JSON.stringify(i.data)),
    ],
  );
  const events = [];
  for (const row of result.rows) {
    const item = merged.get(row.external_id)!;
    const action = row.inserted ? 'created' : 'updated';
    for (const index of item.indexes) outcomes.push({ index, externalId: row.external_id, ok: true, id: row.id, action });
    events.push(internalEvent(operatorId, `entity.${action}`, { id: row.id, externalId: row.external_id, entityType: row.entity_type }, item.data));
  }
  await appendOutboxEvents(trx, events);
  return outcomes;
}
