import { planFilter, scalarAt, NOT_INLINE, type FilterPlan } from '../core/automations/filterPlan';
import { listensTo } from '../core/automations/listening';
import type { EventAutomationRow, PendingOutboxRow } from '../db/queries/outboxDispatch';

/** One `trigger.event` node of an automation, with how its filter is judged (null: no filter, every event passes). */
export interface EventTrigger {
  automation: EventAutomationRow;
  node: { id: string; params: Record<string, unknown> };
  /** The node's place in the definition: an automation fires through its first trigger whose filter passes. */
  order: number;
  filter: { source: string; plan: FilterPlan } | null;
}

/** An automation an event reaches, with the triggers it may fire through, in definition order. */
export interface Listener {
  automation: EventAutomationRow;
  triggers: EventTrigger[];
}

const PLANS_KEPT = 10_000;

/**
 * The triggers of automation versions, each filter planned once (core/automations/filterPlan.ts): a version never
 * changes, so its plans are kept across passes (bounded, oldest dropped first).
 */
export class TriggerPlans {
  private readonly plans = new Map<string, EventTrigger[]>();

  triggersOf(automation: EventAutomationRow): EventTrigger[] {
    const key = `${automation.id} ${automation.version}`;
    const kept = this.plans.get(key);
    if (kept) return kept.map((trigger) => ({ ...trigger, automation }));
    const triggers: EventTrigger[] = [];
    automation.nodes.forEach((node, order) => {
      if (node.type !== 'trigger.event') return;
      const source = typeof node.params.filter === 'string' && node.params.filter.trim() !== '' ? node.params.filter : null;
      triggers.push({ automation, node, order, filter: source === null ? null : { source, plan: planFilter(source) } });
    });
    this.plans.set(key, triggers);
    if (this.plans.size > PLANS_KEPT) this.plans.delete(this.plans.keys().next().value!);
    return triggers;
  }
}

const valueKey = (value: unknown): string => `${typeof value}:${String(value)}`;

/** Triggers of one event name: those an equality narrows, by path and value, and the rest. */
interface EventIndex {
  narrowed: Map<string, { names: string[]; byValue: Map<string, EventTrigger[]>; all: EventTrigger[] }>;
  rest: EventTrigger[];
}

/**
 * Who hears an event among one operator's automations, built once per dispatch pass: automations by event name, and
 * within a name the triggers whose filter has a top-level equality by the value it demands. An event then meets only
 * the triggers whose value it holds and the triggers nothing narrows — with 200 automations each waiting for its own
 * `trigger.data.amount = n`, an event meets one, not 200.
 */
export class EventRoutes {
  private readonly byEvent = new Map<string, EventIndex>();
  /** Automations that must hear an event name for its `cancel_on`, whatever their triggers. */
  private readonly cancelling = new Map<string, EventAutomationRow[]>();

  constructor(automations: EventAutomationRow[], plans: TriggerPlans) {
    for (const automation of automations) {
      for (const name of automation.run_control?.cancel_on ?? []) {
        const automations = this.cancelling.get(name) ?? [];
        if (automations.length === 0) this.cancelling.set(name, automations);
        automations.push(automation);
      }
      for (const trigger of plans.triggersOf(automation)) this.add(String(trigger.node.params.event), trigger);
    }
  }

  /** Whether any automation may hear the event at all (a cheap look before its payload is read). */
  hears(row: PendingOutboxRow): boolean {
    return this.byEvent.has(row.event) || this.cancelling.has(row.event);
  }

  /** The automations whose `cancel_on` names the event and that hear it. */
  cancellersOf(row: PendingOutboxRow): EventAutomationRow[] {
    return (this.cancelling.get(row.event) ?? []).filter((automation) => listensTo(automation, row));
  }

  /** The automations the event may fire, each with its candidate triggers in definition order, in a stable order. */
  listenersOf(row: PendingOutboxRow, event: unknown): Listener[] {
    const context = { trigger: event };
    const index = this.byEvent.get(row.event);
    if (!index) return [];
    const candidates = [...index.rest];
    for (const group of index.narrowed.values()) {
      const value = scalarAt(group.names, context);
      if (value === NOT_INLINE) candidates.push(...group.all);
      else if (value !== undefined) candidates.push(...(group.byValue.get(valueKey(value)) ?? []));
    }
    const byAutomation = new Map<string, Listener>();
    for (const trigger of candidates) {
      if (!listensTo(trigger.automation, row)) continue;
      const listener = byAutomation.get(trigger.automation.id) ?? { automation: trigger.automation, triggers: [] };
      if (!listener.triggers.includes(trigger)) listener.triggers.push(trigger);
      byAutomation.set(trigger.automation.id, listener);
    }
    const listeners = [...byAutomation.values()].sort((a, b) => (a.automation.id < b.automation.id ? -1 : a.automation.id > b.automation.id ? 1 : 0));
    for (const listener of listeners) listener.triggers.sort((a, b) => a.order - b.order);
    return listeners;
  }

  private add(event: string, trigger: EventTrigger): void {
    const index: EventIndex = this.byEvent.get(event) ?? { narrowed: new Map(), rest: [] };
    this.byEvent.set(event, index);
    const key = trigger.filter?.plan.index;
    // Only the event's own fields narrow: `workflow` and `run` differ from one automation's context to the next.
    if (!key || key.names[0] !== 'trigger') return void index.rest.push(trigger);
    const path = key.names.join('\u0000');
    const group = index.narrowed.get(path) ?? { names: key.names, byValue: new Map<string, EventTrigger[]>(), all: [] };
    index.narrowed.set(path, group);
    group.all.push(trigger);
    for (const value of new Set(key.values.map(valueKey))) {
      const triggers = group.byValue.get(value) ?? [];
      if (triggers.length === 0) group.byValue.set(value, triggers);
      triggers.push(trigger);
    }
  }
}
