import { eventName, expression, integer, may, need, text } from '../checks';
import { objectOf, READ, TEXT, type ActionModule } from '../module';
import { flow } from './flow';

/** The longest wait for an event: 30 days, as `action.delay`. */
export const MAX_WAIT_SECONDS = 2_592_000;
/** Whose events a wait listens to when `externalId` is not set: the entity of the event that started the run. */
export const DEFAULT_WAIT_EXTERNAL_ID = '{{ trigger.entity.externalId }}';

/** The event that ended a wait, as the run's later steps and `when` edges see it. */
export interface WaitedEvent {
  id: string;
  event: string;
  occurredAt: string;
  data: unknown;
}

export type WaitOutput = { happened: 'event'; event: WaitedEvent } | { happened: 'timeout' };

/**
 * `action.wait_for_event`: waits until an internal event of the run's entity arrives (and passes `filter`), or
 * `timeoutSeconds` pass. Edges leaving it may carry `when: true` (the event came) or `when: false` (timed out).
 * Delivery: workflows/automation/waitForEvent.ts (the run's side) and worker/runWaitSignals.ts (the dispatcher's).
 */
export const waitForEvent: ActionModule = {
  ...flow,
  label: 'Wait for an event',
  description: 'Waits until the player does something (an event arrives), or gives up after a while.',
  defaults: { event: 'entity_event.transaction', filter: 'event.data.type = "deposit"', timeoutSeconds: 86_400 },
  fields: [
    { kind: 'text', name: 'event', label: 'Event', required: true, suggestions: 'events', hint: 'e.g. entity_event.transaction' },
    {
      kind: 'expression',
      name: 'filter',
      label: 'Only when (optional)',
      placeholder: 'event.data.type = "deposit"',
      hint: 'JSONata over the arriving event (event) and the run (trigger, nodes)',
    },
    { kind: 'text', name: 'externalId', label: 'Player (optional)', hint: 'The player the run started for, unless set: {{ trigger.entity.externalId }}' },
    { kind: 'number', name: 'timeoutSeconds', label: 'Give up after (seconds)', min: 1, max: 2_592_000, hint: '86400 is a day; up to 30 days' },
  ],
  branchLabels: ['event', 'timeout'],
  params: {
    event: need(eventName),
    filter: may(expression),
    externalId: may(text({ max: 1_000 })),
    timeoutSeconds: need(integer(1, MAX_WAIT_SECONDS)),
  },
  output: objectOf(
    {
      happened: { enum: ['event', 'timeout'] },
      event: objectOf({ id: TEXT, event: TEXT, occurredAt: TEXT, data: {} }, ['id', 'event', 'occurredAt']),
    },
    ['happened'],
  ),
  effect: () => READ,
  wouldDo: (p) => ({ method: 'WAIT_FOR_EVENT', target: p.event, template: p.filter ?? null }),
  holdsSeconds: (params) => Number(params.timeoutSeconds ?? 0),
};
