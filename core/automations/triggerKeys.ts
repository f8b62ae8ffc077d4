import { planFilter, MAX_PATH } from './filterPlan';
import type { RunControl } from './runControl';
import type { AutomationNode } from './types';

type Scalar = string | number | boolean | null;

/**
 * What an automation demands of an event's data before any filter of it can pass, as the ingest reads it
 * (`automation_trigger_keys`, db/queries/automationTriggerKeys.ts): per event name, either every event (`path` null), or
 * a value at a path under `trigger.data` that a trigger's top-level equality demands (`filterPlan.ts`'s index).
 */
export interface TriggerKey {
  event: string;
  /** Names under the event's `data`; null when every event of the name is heard. */
  path: string[] | null;
  value?: Scalar;
}

/** The longest key kept (path and value, as JSON): an index entry has room for about 2,700 bytes. */
const MAX_KEY_CHARS = 512;
/**
 * The most keys an automation keeps. 100 triggers each `in` a list of hundreds would be tens of thousands of rows (and
 * past PostgreSQL's 65,535 parameters a statement): past this, each of its event names hears every event.
 */
export const MAX_TRIGGER_KEYS = 1_000;
/** In a `u` regex a paired surrogate is one code point, so only a lone one is of the category `Cs`. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * A value the database can key: not a string PostgreSQL's jsonb refuses (a NUL, a lone surrogate), which no event's
 * data can hold anyway, and not past {@link MAX_KEY_CHARS} with its path.
 */
function keyable(path: string[], value: Scalar): boolean {
  const storable = (text: string) => !text.includes('\u0000') && !LONE_SURROGATE.test(text);
  if (typeof value === 'string' && !storable(value)) return false;
  return path.every(storable) && JSON.stringify([path, value]).length <= MAX_KEY_CHARS;
}

/**
 * Only the event's own data narrows at ingest: entity fields are sealed in the database, `eventId` is added to the data
 * when the dispatcher reads it, and the rest of the payload (`id`, `occurredAt`, …) is not written yet.
 */
function dataPath(names: string[]): string[] | null {
  if (names.length < 3 || names.length > MAX_PATH || names[0] !== 'trigger' || names[1] !== 'data' || names[2] === 'eventId') return null;
  return names.slice(2);
}

/**
 * The keys of a definition: each `trigger.event` node's, and every event of each `run_control.cancel_on` name. An event
 * that holds none of its name's demanded values at their paths cannot start a run of this automation, so the ingest may
 * write it dispatched (docs/workflows.md "How events reach automations").
 *
 * @example triggerKeysOf([{ id: 't', type: 'trigger.event', params: { event: 'entity_event.transaction', filter: 'trigger.data.amount = 5' } }], null)
 * // [{ event: 'entity_event.transaction', path: ['amount'], value: 5 }]
 */
export function triggerKeysOf(nodes: AutomationNode[], control: RunControl | null): TriggerKey[] {
  const keys = new Map<string, TriggerKey>();
  const add = (key: TriggerKey) => keys.set(JSON.stringify([key.event, key.path, key.value ?? null, key.value === undefined]), key);
  for (const node of nodes) {
    if (node.type !== 'trigger.event') continue;
    const event = String(node.params.event);
    const filter = typeof node.params.filter === 'string' && node.params.filter.trim() !== '' ? node.params.filter : null;
    const index = filter === null ? null : planFilter(filter).index;
    const path = index ? dataPath(index.names) : null;
    if (!index || !path || !index.values.every((value) => keyable(path, value))) add({ event, path: null });
    else for (const value of index.values) add({ event, path, value });
  }
  for (const event of control?.cancel_on ?? []) add({ event, path: null });
  if (keys.size <= MAX_TRIGGER_KEYS) return [...keys.values()];
  return [...new Set([...keys.values()].map((key) => key.event))].map((event) => ({ event, path: null }));
}
