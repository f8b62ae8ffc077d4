import { eventName, expression, may, need } from '../checks';
import type { NodeModule } from '../module';
import { flow } from './flow';

/** `trigger.event`: an internal event of the operator's data (dispatched by worker/outboxDispatch.ts). */
export const triggerEvent: NodeModule = {
  ...flow,
  label: 'Event',
  description: 'Runs when your data changes: an event is recorded, a player is created, a state is set.',
  defaults: { event: 'entity_event.transaction' },
  fields: [
    {
      kind: 'text',
      name: 'event',
      label: 'Event',
      required: true,
      suggestions: 'events',
      hint: 'e.g. entity_event.transaction; provider.webhook.<name> for a named webhook',
    },
    {
      kind: 'expression',
      name: 'filter',
      label: 'Only when (optional)',
      placeholder: 'trigger.data.type = "deposit"',
      hint: 'A JSONata condition over the event',
    },
  ],
  branchLabels: null,
  params: { event: need(eventName), filter: may(expression) },
};
