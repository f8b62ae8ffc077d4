import type { Knex } from 'knex';
import { internalEvent } from '../../core/events';
import type { StateWrite } from '../../core/ingestItems';
import { findEntitiesByExternalIds } from '../queries/entities';
import { appendOutboxEvents } from '../queries/outbox';
import { erased, notFound, type Indexed, type ItemOutcome } from './results';

/**
 * Upserts state values in one statement (the last of several writes to the same key wins) and emits
 * `entity_state.updated.<key>` and `state.updated` for each.
 */
export async function upsertStates(trx: Knex.Transaction, operatorId: string, items: Array<Indexed<StateWrite>>): Promise<ItemOutcome[]> {
  const entities = await findEntitiesByExternalIds(trx, operatorId, [...new Set(items.map((item) => item.write.externalId))]);
  const outcomes: ItemOutcome[] = [];
  const latest = new Map<string, { entityId: string; entityType: string; write: StateWrite }>();
  for (const { index, write } of items) {
    const entity = entities.get(write.externalId);
    if (!entity) outcomes.push({ index, externalId: write.externalId, ok: false, error: notFound(write.externalId) });
    else if (entity.deleted_at) outcomes.push({ index, externalId: write.externalId, ok: false, error: erased(write.externalId) });
    else {
      latest.set(`${entity.id}\u0000${write.stateKey}`, { entityId: entity.id, entityType: entity.entity_type, write });
      outcomes.push({ index, externalId: write.externalId, ok: true, id: entity.id });
    }
  }
  if (latest.size === 0) return outcomes;
  const rows = [...latest.values()];
  const result = await trx.raw<{ rows: Array<{ entity_id: string; state_key: string; value: unknown; updated_at: Date }> }>(
    `INSERT INTO entity_states (operator_id, entity_id, state_key, value, updated_at)
     SELECT ?, u.entity_id, u.state_key, u.value, now()
       FROM unnest(?::text[], ?::text[], ?::jsonb[]) AS u(entity_id, state_key, value)
     ON CONFLICT (operator_id, entity_id, state_key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at
     RETURNING entity_id, state_key, value, updated_at`,
    [operatorId, rows.map((r) => r.entityId), rows.map((r) => r.write.stateKey), rows.map((r) => JSON.stringify(r.write.value))],
  );
  const stored = new Map(result.rows.map((row) => [`${row.entity_id}\u0000${row.state_key}`, row]));
  const byIndex = new Map(items.map((item) => [item.index, item]));
  for (const outcome of outcomes) {
    if (!outcome.ok) continue;
    const item = byIndex.get(outcome.index)!;
    outcome.row = stored.get(`${outcome.id}\u0000${item.write.stateKey}`) as Record<string, unknown> | undefined;
  }
  await appendOutboxEvents(
    trx,
    rows.flatMap((r) => {
      const entity = { id: r.entityId, externalId: r.write.externalId, entityType: r.entityType };
      const data = { key: r.write.stateKey, value: r.write.value };
      return [internalEvent(operatorId, `entity_state.updated.${r.write.stateKey}`, entity, data), internalEvent(operatorId, 'state.updated', entity, data)];
    }),
  );
  return outcomes;
}
