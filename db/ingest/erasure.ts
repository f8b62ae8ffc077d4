import { internalEvent } from '../../core/events';
import type { Db } from '../knex';
import { findEntity, type EntityRow } from '../queries/entities';
import { forgetEntityRequests } from '../queries/idempotency';
import { appendOutboxEvents } from '../queries/outbox';
import { redactEntityRuns } from '../queries/automationRuns';
import { forgetEntityTriggerSkips } from '../queries/triggerSkips';

/**
 * Erases an entity for data protection (spec 3.4), all in one transaction: its data becomes
 * `{ _deleted: true }`, every event of it (hot, archived and in the outbox) `{ _redacted: true }`, and
 * all its states are removed; so are the copies (docs/security.md "Erasure"): the runs about it are redacted and
 * the idempotency records of its writes and the skipped triggers of its events (whose messages may quote them) dropped. Repeating it changes nothing (erasure is idempotent).
 */
export async function eraseEntity(db: Db, operatorId: string, externalId: string): Promise<EntityRow | undefined> {
  return db.transaction(async (trx) => {
    const entity = await trx('entities').where({ operator_id: operatorId, external_id: externalId }).forUpdate().first<EntityRow | undefined>();
    if (!entity || entity.deleted_at) return entity;
    const scope = { operator_id: operatorId, entity_id: entity.id };
    const redacted = JSON.stringify({ _redacted: true });
    await trx('entities')
      .where({ operator_id: operatorId, id: entity.id })
      .update({ data: JSON.stringify({ _deleted: true }), deleted_at: trx.fn.now(), updated_at: trx.fn.now() });
    await trx('entity_events').where(scope).update({ data: redacted });
    await trx('entity_events_archive').where(scope).update({ data: redacted });
    await forgetEntityRequests(trx, operatorId, entity.id);
    await trx('entity_states').where(scope).delete();
    await trx('entity_states_archive').where(scope).delete();
    await trx('outbox_events')
      .where(scope)
      .whereNotNull('payload')
      .update({ payload: trx.raw(`jsonb_set(payload, '{data}', ?::jsonb)`, [redacted]) });
    await redactEntityRuns(trx, operatorId, externalId);
    await forgetEntityTriggerSkips(trx, operatorId, entity.id);
    await appendOutboxEvents(trx, [internalEvent(operatorId, 'entity.deleted', { id: entity.id, externalId, entityType: entity.entity_type }, {})]);
    return findEntity(trx, operatorId, externalId);
  });
}
