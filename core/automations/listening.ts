/** What the listening rule reads of an automation (a `workflows` row). */
export interface ListeningAutomation {
  id: string;
  operator_id: string;
  trigger_events: string[];
  events_since: Date;
}

/** What it reads of an event (an `outbox_events` row). */
export interface HeardEvent {
  operator_id: string;
  event: string;
  occurred_at: Date;
  origin_automation_id: string | null;
}

/**
 * The listening rule: an active, undeleted automation hears an event of its own operator whose name one of its
 * `trigger.event` nodes (or its `run_control.cancel_on`) names (`trigger_events`), that occurred once it was created
 * or re-activated (`events_since`), and that a run of that same automation did not write (no automation triggers
 * itself). `active` and `deleted_at` are the query's part (db/queries/outboxDispatch.ts `automationsListeningTo`);
 * the SQL function `outbox_event_heard` states the same rule for the writers, which leave an event no automation hears
 * already dispatched — test/integration/listening-rule.test.ts checks the two agree on every case.
 *
 * @example listensTo(automation, { operator_id: automation.operator_id, event: 'entity_event.transaction', occurred_at: new Date(), origin_automation_id: null })
 */
export function listensTo(automation: ListeningAutomation, event: HeardEvent): boolean {
  return (
    automation.operator_id === event.operator_id &&
    automation.trigger_events.includes(event.event) &&
    event.occurred_at >= automation.events_since &&
    event.origin_automation_id !== automation.id
  );
}
