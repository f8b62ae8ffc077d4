import { prefixedId } from './ids';

export interface EventEntityRef {
  id: string;
  externalId: string;
  entityType: string;
}

/** The payload of an internal event (DESIGN.md "Data API details"), as stored in the outbox and given to triggers. */
export interface InternalEvent {
  id: string;
  event: string;
  operatorId: string;
  occurredAt: string;
  entity: EventEntityRef | null;
  data: unknown;
}

/**
 * Builds an internal event with a fresh `evt_` id.
 *
 * @example internalEvent(operatorId, 'entity_event.transaction', entityRef, { amount: 5000 })
 */
export function internalEvent(operatorId: string, event: string, entity: EventEntityRef | null, data: unknown, occurredAt = new Date()): InternalEvent {
  return { id: prefixedId('evt'), event, operatorId, occurredAt: occurredAt.toISOString(), entity, data };
}
