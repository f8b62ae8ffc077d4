import { eventName, expression, may, need } from './checks';
import type { NodeModule } from './module';

/** `trigger.event`: an internal event of the operator's data (dispatched by worker/outboxDispatch.ts). */
export const triggerEvent: NodeModule = {
  label: 'Event',
  group: 'trigger',
  description: 'Runs when your data changes: an event is recorded, a player is created, a state is set.',
  defaults: { event: 'entity_event.transaction' },
  params: { event: need(eventName), filter: may(expression) },
  branches: 'none',
};
