import type { EntityRow, EventRow, StateRow } from '../../db/queries/entities';

/** A player as `GET /players` lists it: `data` as stored (PII sealed). */
export const playerItem = (entity: EntityRow) => ({
  id: entity.id,
  external_id: entity.external_id,
  entity_type: entity.entity_type,
  data: entity.data,
  created_at: entity.created_at.toISOString(),
  updated_at: entity.updated_at.toISOString(),
});

/** One player as `GET /players/:id` answers: `data` with PII opened, states and recent events. */
export function playerDetail(
  entity: EntityRow,
  data: Record<string, unknown>,
  states: StateRow[],
  events: Array<Pick<EventRow, 'id' | 'event_type' | 'data' | 'created_at'>>,
) {
  return {
    ...playerItem(entity),
    data,
    states: states.map((state) => ({ state_key: state.state_key, value: state.value, updated_at: state.updated_at.toISOString() })),
    recentEvents: events.map((event) => ({ id: event.id, event_type: event.event_type, data: event.data, created_at: event.created_at.toISOString() })),
  };
}
