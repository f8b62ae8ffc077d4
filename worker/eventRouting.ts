import type { InternalEvent } from '../core/events';
import type { EventAutomationRow } from '../db/queries/outboxDispatch';
import type { EventFilters, FilterVerdict } from './eventFilters';
import { EventRoutes, TriggerPlans, type EventTrigger } from './eventRouter';

/**
 * The one object a dispatcher asks who hears an event and whether a trigger passes: the listening rule and the
 * triggers indexed by event name and equality value (worker/eventRouter.ts, core/automations/listening.ts), the
 * filters planned once per automation version, and their judgement, inline or in the sandbox (worker/eventFilters.ts).
 */
export class EventRouter {
  private readonly plans = new TriggerPlans();

  constructor(private readonly filters: EventFilters) {}

  /** The routes of one pass over one operator's events, from the automations that listen to their names. */
  routesFor(automations: EventAutomationRow[]): EventRoutes {
    return new EventRoutes(automations, this.plans);
  }

  judge(trigger: EventTrigger, event: InternalEvent): Promise<FilterVerdict> {
    return this.filters.judge(trigger, event);
  }
}
