import type { Knex } from 'knex';
import type { InternalEvent } from '../../core/events';

/**
 * Appends internal events to the outbox in one statement. Call it with the transaction that makes the
 * change, so an event exists exactly when its change does.
 */
export async function appendOutboxEvents(trx: Knex | Knex.Transaction, events: InternalEvent[]): Promise<void> {
  if (events.length === 0) return;
  await trx('outbox_events').insert(
    events.map((event) => ({
      id: event.id,
      operator_id: event.operatorId,
      event: event.event,
      payload: JSON.stringify(event),
      occurred_at: event.occurredAt,
    })),
  );
}
