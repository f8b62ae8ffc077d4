import { need, objectOrExpression, text } from '../checks';
import { objectOf, TEXT, type ActionModule } from '../module';
import { TEMPLATE_HINT } from '../editor';
import { flow } from './flow';

/** `action.record_event`: as the data API's events; appends, and emits an event that may fire other workflows. */
export const recordEvent: ActionModule = {
  ...flow,
  label: 'Record an event',
  description: 'Records an event for a player.',
  defaults: { externalId: '{{ trigger.entity.externalId }}', eventType: 'support', data: { subject: 'Follow up' } },
  fields: [
    { kind: 'text', name: 'externalId', label: 'Player', required: true, hint: TEMPLATE_HINT },
    { kind: 'text', name: 'eventType', label: 'Event type', required: true, suggestions: 'eventTypes' },
    { kind: 'object', name: 'data', label: 'Event fields' },
  ],
  branchLabels: null,
  params: { externalId: need(text()), eventType: need(text()), data: need(objectOrExpression) },
  output: objectOf({ id: TEXT, externalId: TEXT, eventType: TEXT }, ['id', 'externalId', 'eventType']),
  effect: () => ({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }),
  wouldDo: (p) => ({ method: 'RECORD_EVENT', target: p.eventType, template: p.data }),
};
