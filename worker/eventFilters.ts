import type { Logger } from 'pino';
import type { InternalEvent } from '../core/events';
import type { EventAutomationRow } from '../db/queries/outboxDispatch';
import type { ExpressionEvaluator } from '../sandbox/tasks';

/** Why an event did not reach an automation whose trigger filter it met: counted in `platform_event_filter_dropped_total`. */
export type FilterDropReason = 'error' | 'timeout' | 'memory_limit' | 'suspended';

/** How long a filter that ran past its budget is left unevaluated (its events dropped) before it is tried again. */
export const FILTER_SUSPEND_MS = 60_000;

/**
 * The `filter` of event triggers, evaluated in the sandbox within the expression budget (never on the dispatcher's
 * thread). A filter that fails drops that event for that automation; one that runs past its budget is also suspended
 * for {@link FILTER_SUSPEND_MS} — its events are dropped at once, with a count and one log line, until one evaluation
 * is tried again — so a tenant's backtracking filter costs one budget a minute, not one per event, and cannot hold
 * the dispatch of every other tenant's events behind it. A new version of the automation starts afresh.
 */
export class EventFilters {
  private readonly suspended = new Map<string, number>();

  constructor(
    private readonly deps: {
      sandbox: ExpressionEvaluator;
      logger: Logger;
      onDropped?: (reason: FilterDropReason) => void;
      now?: () => number;
    },
  ) {}

  /** Whether `event` passes the trigger node's filter (true when it has none). */
  async passes(automation: EventAutomationRow, node: { id: string; params: Record<string, unknown> }, event: InternalEvent): Promise<boolean> {
    const filter = node.params.filter;
    if (typeof filter !== 'string' || filter.trim() === '') return true;
    const now = this.deps.now ?? Date.now;
    const key = `${automation.id} ${automation.version} ${node.id}`;
    const until = this.suspended.get(key);
    if (until !== undefined && until > now()) return this.drop('suspended');
    const context = {
      trigger: event,
      nodes: {},
      workflow: { id: automation.id, name: automation.name, version: automation.version },
      run: { id: '', source: 'event' },
    };
    const outcome = await this.deps.sandbox.evaluate(automation.operator_id, { kind: 'condition', expression: filter, field: 'params.filter', context });
    if (outcome.ok) {
      this.suspended.delete(key);
      return outcome.value === true;
    }
    // JSONata messages can quote the event's values (personal data), so the log names the automation, event and code only.
    const where = { automationId: automation.id, triggerNodeId: node.id, eventId: event.id, code: outcome.code };
    if (outcome.code === 'EXPRESSION_ERROR') {
      this.deps.logger.warn(where, 'event filter failed; event not dispatched to this automation');
      return this.drop('error');
    }
    this.suspended.set(key, now() + FILTER_SUSPEND_MS);
    if (this.suspended.size > 10_000) this.suspended.delete(this.suspended.keys().next().value!);
    this.deps.logger.warn({ ...where, suspendedMs: FILTER_SUSPEND_MS }, 'event filter exceeded its budget; its events are dropped until it is tried again');
    return this.drop(outcome.code === 'EXPRESSION_TIMEOUT' ? 'timeout' : 'memory_limit');
  }

  private drop(reason: FilterDropReason): false {
    this.deps.onDropped?.(reason);
    return false;
  }
}
