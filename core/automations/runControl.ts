import { compileProblem } from './expressions';
import { MAX_EXPRESSION_LENGTH, type Problems } from './nodes/checks';
import { isRecord, type AutomationNode } from './types';

/**
 * How an automation's event runs share a key (docs/workflows.md "Run control"): concurrency slots per key, a throttle,
 * a debounce and the events that cancel a key's runs. Only runs started by events are controlled; manual, MCP, webhook
 * and schedule runs start as before and take no slot.
 */
export interface RunControl {
  /** JSONata over `{ trigger, workflow }`; default the event's entity externalId (events without one share the key ""). */
  key?: string;
  concurrency?: { limit: number; when_busy: WhenBusy };
  /** At most `limit` triggers admitted per fixed window of `period_seconds`, opened by the first one. */
  throttle?: { limit: number; period_seconds: number };
  /** One run, with the last trigger, once no trigger arrived for `quiet_seconds`. */
  debounce?: { quiet_seconds: number };
  /** Event names whose arrival for a key ends that key's running runs (`cancelled`) and drops its queued triggers. */
  cancel_on?: string[];
}

export const WHEN_BUSY = ['queue', 'skip', 'replace'] as const;
export type WhenBusy = (typeof WHEN_BUSY)[number];

export const RUN_CONTROL_LIMITS = {
  concurrency: 100,
  throttle: 10_000,
  periodSeconds: 86_400,
  quietSeconds: 86_400,
  cancelOn: 20,
  /** Triggers a key's lane holds in `queue` mode; a trigger beyond them is skipped (`queue_full`). */
  queued: 100,
} as const;

/** Why a trigger did not start a run: the `reason` of `platform_automation_triggers_skipped_total`. */
export type SkipReason = 'busy' | 'throttled' | 'debounced' | 'replaced' | 'queue_full' | 'cancelled' | 'key_error';

const EVENT_NAME = /^[A-Za-z0-9_.:-]{1,200}$/;
const KEYS = ['key', 'concurrency', 'throttle', 'debounce', 'cancel_on'];

function integer(value: unknown, min: number, max: number, field: string, problems: Problems): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  problems.push({ field, message: `must be an integer from ${min} to ${max}` });
  return min;
}

function object(raw: unknown, field: string, keys: string[], problems: Problems): Record<string, unknown> | undefined {
  if (!isRecord(raw)) return void problems.push({ field, message: 'must be an object' });
  for (const key of Object.keys(raw)) if (!keys.includes(key)) problems.push({ field: `${field}.${key}`, message: 'unknown field' });
  return raw;
}

function readCancelOn(raw: unknown, problems: Problems): string[] | undefined {
  const field = 'run_control.cancel_on';
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > RUN_CONTROL_LIMITS.cancelOn)
    return void problems.push({ field, message: `must be an array of 1 to ${RUN_CONTROL_LIMITS.cancelOn} event names` });
  raw.forEach((name: unknown, index) => {
    if (typeof name !== 'string' || !EVENT_NAME.test(name))
      problems.push({ field: `${field}[${index}]`, message: 'must be an event name such as entity_event.transaction' });
  });
  return [...new Set(raw as string[])];
}

/**
 * Reads `run_control` of a definition, naming each field in `problems`; null when absent or null. Refused: an empty
 * object (it would control nothing), a definition without a `trigger.event` node (only event runs are controlled),
 * and `debounce` with `when_busy: replace` (a debounce already keeps only the last trigger; replacing the run it started
 * would cancel work for a trigger that is no longer the last).
 *
 * @example readRunControl({ concurrency: { limit: 1, when_busy: 'skip' } }, nodes, problems) // { concurrency: { limit: 1, when_busy: 'skip' } }
 */
export function readRunControl(raw: unknown, nodes: AutomationNode[], problems: Problems): RunControl | null {
  if (raw === undefined || raw === null) return null;
  const body = object(raw, 'run_control', KEYS, problems);
  if (!body) return null;
  const control: RunControl = {};
  if (body.key !== undefined) {
    const problem =
      typeof body.key !== 'string' || body.key.trim() === '' || body.key.length > MAX_EXPRESSION_LENGTH
        ? `must be a JSONata expression of 1 to ${MAX_EXPRESSION_LENGTH} characters`
        : body.key.includes('}}')
          ? 'must not contain }} (write } } inside object constructors)'
          : compileProblem(body.key);
    if (problem) problems.push({ field: 'run_control.key', message: problem });
    else control.key = body.key as string;
  }
  const concurrency = body.concurrency === undefined ? undefined : object(body.concurrency, 'run_control.concurrency', ['limit', 'when_busy'], problems);
  if (concurrency) {
    const limit = integer(concurrency.limit, 1, RUN_CONTROL_LIMITS.concurrency, 'run_control.concurrency.limit', problems);
    const whenBusy = concurrency.when_busy;
    if (typeof whenBusy !== 'string' || !(WHEN_BUSY as readonly string[]).includes(whenBusy))
      problems.push({ field: 'run_control.concurrency.when_busy', message: `must be one of ${WHEN_BUSY.join(', ')}` });
    control.concurrency = { limit, when_busy: whenBusy as WhenBusy };
  }
  const throttle = body.throttle === undefined ? undefined : object(body.throttle, 'run_control.throttle', ['limit', 'period_seconds'], problems);
  if (throttle) {
    control.throttle = {
      limit: integer(throttle.limit, 1, RUN_CONTROL_LIMITS.throttle, 'run_control.throttle.limit', problems),
      period_seconds: integer(throttle.period_seconds, 1, RUN_CONTROL_LIMITS.periodSeconds, 'run_control.throttle.period_seconds', problems),
    };
  }
  const debounce = body.debounce === undefined ? undefined : object(body.debounce, 'run_control.debounce', ['quiet_seconds'], problems);
  if (debounce) {
    control.debounce = { quiet_seconds: integer(debounce.quiet_seconds, 1, RUN_CONTROL_LIMITS.quietSeconds, 'run_control.debounce.quiet_seconds', problems) };
  }
  if (body.cancel_on !== undefined) {
    const cancelOn = readCancelOn(body.cancel_on, problems);
    if (cancelOn) control.cancel_on = cancelOn;
  }
  if (!control.concurrency && !control.throttle && !control.debounce && !control.cancel_on && Object.keys(body).every((key) => key === 'key'))
    problems.push({ field: 'run_control', message: 'must set at least one of concurrency, throttle, debounce, cancel_on (or be null)' });
  if (control.debounce && control.concurrency?.when_busy === 'replace')
    problems.push({ field: 'run_control.concurrency.when_busy', message: 'cannot be replace with debounce (a debounce already keeps only the last trigger)' });
  if (!nodes.some((node) => node.type === 'trigger.event'))
    problems.push({ field: 'run_control', message: 'controls runs started by events: the workflow needs a trigger.event node' });
  return control;
}

/** The events an automation must hear: its triggers' and its `cancel_on`'s (stored as `trigger_events`). */
export function heardEvents(nodes: AutomationNode[], control: RunControl | null): string[] {
  const triggers = nodes.filter((node) => node.type === 'trigger.event').map((node) => String(node.params.event));
  return [...new Set([...triggers, ...(control?.cancel_on ?? [])])];
}

/** One trigger handed to a key's lane: the run it would start, under the Temporal id that keeps it one per event. */
export interface LaneTrigger {
  eventId: string;
  /** `automation-event-<automationId>-<eventId>`: the run's own Temporal workflow id. */
  runWorkflowId: string;
  /** The arguments of `automationRunWorkflow`. */
  run: { operatorId: string; automationId: string; source: 'event'; input: unknown; triggerNodeId: string };
  /** The automation's run control as stored when the event was dispatched: the latest one governs the lane. */
  control: RunControl;
  /** The key as evaluated (its skipped-trigger record keeps it sealed); absent from triggers handed over before it was sent. */
  key?: string;
  /** The automation's version when the event was dispatched (for its skipped-trigger record). */
  workflowVersion?: number;
}

/** `automationLaneWorkflow`'s input: its ids, and the state a continue-as-new carries over. */
export interface LaneInput {
  operatorId: string;
  automationId: string;
  /** Triggers a run handles before it continues as new (default 500); tests set it low. */
  triggersPerRun?: number;
  carried?: LaneCarried;
}

export interface LaneCarried {
  control: RunControl | null;
  queued: LaneTrigger[];
  /** The debounced trigger and when it fires (epoch ms). */
  pending: { trigger: LaneTrigger; at: number } | null;
  /** The throttle's window: when it opened (epoch ms) and how many triggers it admitted. */
  window: { openedAt: number; admitted: number } | null;
  counts: LaneCounts;
  /** Event ids lately handed over, so a dispatch repeated after a crash is not counted twice. */
  recent: string[];
}

/**
 * What a lane did since it started (carried across continue-as-new), read by the `laneState` query; `unrecorded`: held-back
 * triggers left without a skipped-trigger record (the automation's minute full, or the lane's buffer).
 */
export type LaneCounts = { started: number; unrecorded?: number } & Partial<Record<SkipReason, number>>;

/** What the `laneState` query answers. */
export interface LaneState {
  running: string[];
  queued: number;
  pending: boolean;
  counts: LaneCounts;
}
