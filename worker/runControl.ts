import type { Logger } from 'pino';
import type { LaneTrigger, RunControl, SkipReason } from '../core/automations/runControl';
import type { InternalEvent } from '../core/events';
import type { ExpressionEvaluator } from '../sandbox/tasks';
import { eventRunWorkflowId, type EventRunInput } from '../temporal/automationRuns';
import { laneWorkflowId, type LaneKey } from '../temporal/keyedRuns';
import { FILTER_WAIT_MS } from './eventFilters';
import { LaneCapError, type LaneKeyCap } from './laneKeys';
import { OverShareError } from './overShare';

/** An automation's run control as the dispatcher hands it along with an event run. */
export interface ControlledBy {
  control: RunControl;
  workflow: { id: string; name: string; version: number };
}

/** The run control an automation's event runs are handed along with; undefined when it has none. */
export function controlOf(automation: { id: string; name: string; version: number; run_control?: RunControl | null }): ControlledBy | undefined {
  if (!automation.run_control) return undefined;
  return { control: automation.run_control, workflow: { id: automation.id, name: automation.name, version: automation.version } };
}

/** An event run, with the run control of its automation when it has one. */
export type ControlledEventRun = EventRunInput & { runControl?: ControlledBy };

/** What starting an event run came to: a run started (or handed to its lane), one there already, or a `key` that failed. */
export type StartOutcome = 'started' | 'duplicate' | { keyFailed: { code: string; message: string } };

/** How the dispatcher starts the runs events fire and ends those a `cancel_on` event ends: {@link RunControlDispatch}. */
export interface EventRuns {
  start(input: ControlledEventRun): Promise<StartOutcome>;
  cancel(controlled: ControlledBy & { operatorId: string }, event: InternalEvent): Promise<void>;
}

export interface RunControlDeps {
  sandbox: ExpressionEvaluator;
  logger: Logger;
  /** temporal/automationRuns.ts `startEventRun`: a run of an automation without run control. */
  startRun: (input: EventRunInput) => Promise<'started' | 'duplicate'>;
  /** temporal/keyedRuns.ts `startKeyedRun`. */
  startKeyed: (lane: LaneKey, trigger: LaneTrigger) => Promise<'started'>;
  /** temporal/keyedRuns.ts `cancelKeyedRuns`. */
  cancelKeyed: (lane: LaneKey) => Promise<number>;
  /** The cap on live keys per automation (worker/laneKeys.ts); no cap when absent. */
  laneCap?: Pick<LaneKeyCap, 'admit' | 'cap'>;
  /** The `key` expression failed: the event starts no run of that automation. */
  onSkipped?: (reason: SkipReason) => void;
  /** How long a `key` waits for its operator's share of the sandbox before the event is left for later. */
  waitMs?: number;
}

/**
 * The dispatcher's side of run control (docs/workflows.md "Run control"): evaluates an automation's `key` in the
 * sandbox within the expression budget (as trigger filters are), hands each event run of a controlled automation to
 * its key's lane, and ends a key's runs on a `cancel_on` event. Triggers of one automation reach their lanes in the
 * order the dispatcher hands them over (outbox order), although their keys are evaluated concurrently, so "the last
 * trigger" of a debounce and a queue's order are the events' order.
 */
export class RunControlDispatch implements EventRuns {
  /** Per automation: settles once the latest handed-over trigger has joined its lane's chain. */
  private readonly order = new Map<string, Promise<void>>();
  /** Per lane: the latest signal-with-start, so a lane's signals are sent one after another. */
  private readonly lanes = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: RunControlDeps) {}

  /**
   * Starts an event run: through its key's lane when its automation has run control (`started`: handed over; the lane
   * decides), as before otherwise. A `key` that failed starts nothing and says why; one whose operator's share of the
   * sandbox is spent throws {@link OverShareError}, and the event waits in the outbox; so does one whose key is new
   * while its automation has its most live keys ({@link LaneCapError}).
   */
  async start(input: ControlledEventRun): Promise<StartOutcome> {
    const { runControl, ...run } = input;
    if (!runControl) return this.deps.startRun(run);
    const prior = this.order.get(run.automationId) ?? Promise.resolve();
    let joined!: () => void;
    const mine = new Promise<void>((resolve) => (joined = resolve));
    this.order.set(run.automationId, mine);
    let sent: Promise<'started'> | undefined;
    try {
      const key = await this.keyOf(runControl, run.operatorId, run.input as InternalEvent);
      await prior;
      if (typeof key !== 'string') return key;
      const lane = { operatorId: run.operatorId, automationId: run.automationId, key };
      // Inside the automation's order, so its admissions are counted one after another.
      if (this.deps.laneCap && !(await this.deps.laneCap.admit({ operatorId: run.operatorId, automationId: run.automationId }, laneWorkflowId(lane))))
        throw new LaneCapError(run.operatorId, run.automationId, this.deps.laneCap.cap);
      const trigger: LaneTrigger = {
        eventId: run.eventId,
        runWorkflowId: eventRunWorkflowId(run.automationId, run.eventId),
        run: { operatorId: run.operatorId, automationId: run.automationId, source: 'event', input: run.input, triggerNodeId: run.triggerNodeId ?? '' },
        control: runControl.control,
        key,
        workflowVersion: runControl.workflow.version,
      };
      sent = this.chained(laneWorkflowId(lane), () => this.deps.startKeyed(lane, trigger));
    } finally {
      joined();
      if (this.order.get(run.automationId) === mine) this.order.delete(run.automationId);
    }
    return sent ?? 'duplicate';
  }

  /** Ends the runs of the event's key when the event is one of the automation's `cancel_on`. */
  async cancel(controlled: ControlledBy & { operatorId: string }, event: InternalEvent): Promise<void> {
    if (!controlled.control.cancel_on?.includes(event.event)) return;
    const key = await this.keyOf(controlled, controlled.operatorId, event);
    if (typeof key !== 'string') return;
    const cancelled = await this.deps.cancelKeyed({ operatorId: controlled.operatorId, automationId: controlled.workflow.id, key });
    if (cancelled > 0) this.deps.logger.info({ automationId: controlled.workflow.id, eventId: event.id, cancelled }, 'runs cancelled by a cancel_on event');
  }

  private chained<T>(laneId: string, send: () => Promise<T>): Promise<T> {
    const next = (this.lanes.get(laneId) ?? Promise.resolve()).catch(() => undefined).then(send);
    this.lanes.set(laneId, next);
    const forget = () => {
      if (this.lanes.get(laneId) === next) this.lanes.delete(laneId);
    };
    next.then(forget, forget);
    return next;
  }

  /**
   * The event's key: the `key` expression's value (a string as is, another value as JSON, nothing as ""), or the event's
   * entity externalId ("" without one: such events share one key); `keyFailed` when the expression failed (logged,
   * counted, recorded by the dispatcher as a skipped trigger).
   */
  private async keyOf(controlled: ControlledBy, operatorId: string, event: InternalEvent): Promise<string | { keyFailed: { code: string; message: string } }> {
    const expression = controlled.control.key;
    if (expression === undefined) return event.entity?.externalId ?? '';
    const context = { trigger: event, nodes: {}, workflow: controlled.workflow, run: { id: '', source: 'event' as const } };
    // Rendered as one whole template, which keeps the value as it is (a condition would answer true or false).
    const outcome = await this.deps.sandbox.evaluate(
      operatorId,
      { kind: 'render', params: { key: `{{ ${expression} }}` }, context },
      { waitMs: this.deps.waitMs ?? FILTER_WAIT_MS },
    );
    if (outcome.ok) {
      const value = (outcome.value as { key?: unknown }).key;
      if (value === undefined || value === null) return '';
      return typeof value === 'string' ? value : JSON.stringify(value);
    }
    if (outcome.code === 'EXPRESSION_BUDGET_EXCEEDED') throw new OverShareError(operatorId);
    // JSONata messages can quote the event's values (personal data): the automation, event and code only.
    this.deps.logger.warn(
      { automationId: controlled.workflow.id, eventId: event.id, code: outcome.code },
      'run_control.key failed; the event starts no run of this automation',
    );
    this.deps.onSkipped?.('key_error');
    return { keyFailed: { code: outcome.code, message: outcome.message.replace(/\bparams\.key\b/g, 'run_control.key') } };
  }
}
