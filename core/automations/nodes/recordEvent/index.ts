import { need, objectOrExpression, text } from './checks';
import { objectOf, TEXT, type ActionModule } from './module';

/** `action.record_event`: as the data API's events; appends, and emits an event that may fire other workflows. */
export const recordEvent: ActionModule = {
  label: 'Record an event',
  group: 'action',
  description: 'Records an event for a player.',
  defaults: { externalId: '{{ trigger.entity.externalId }}', eventType: 'support', data: { subject: 'Follow up' } },
  params: { externalId: need(text()), eventType: need(text()), data: need(objectOrExpression) },
  branches: 'none',
  output: objectOf({ id: TEXT, externalId: TEXT, eventType: TEXT }, ['id', 'externalId', 'eventType']),
  effect: () => ({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }),
};
