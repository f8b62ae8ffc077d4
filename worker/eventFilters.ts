import type { Logger } from 'pino';
import { NOT_INLINE, passesInline } from '../core/automations/filterPlan';
import type { InternalEvent } from '../core/events';
import type { ExpressionEvaluator, ExpressionFailureCode } from '../sandbox/tasks';
import type { EventTrigger } from './eventRouter';

/** Where a filter was judged: counted in `platform_event_filter_evaluations_total`. */
export type FilterWhere = 'inline' | 'sandbox';
/** Why a filter failed for an event: counted in `platform_event_filter_failed_total`. */
export type FilterFailure = 'error' | 'timeout' | 'memory_limit';

export type FilterVerdict =
  | { kind: 'pass' }
  | { kind: 'reject' }
  /** The filter failed for this event (its expression's error, or its own CPU or memory budget): a skipped trigger. */
  | { kind: 'failed'; code: ExpressionFailureCode; message: string }
  /** The operator's share of the sandbox is spent: the event waits in the outbox and is judged again later. */
  | { kind: 'over_share' };

/** How long a dispatcher's evaluation waits for its operator's share before the operator's events are left for later. */
export const FILTER_WAIT_MS = 2_000;

const FAILURES: Partial<Record<ExpressionFailureCode, FilterFailure>> = {
  EXPRESSION_ERROR: 'error',
  EXPRESSION_TIMEOUT: 'timeout',
  EXPRESSION_MEMORY_LIMIT: 'memory_limit',
};

/**
 * The `filter` of event triggers. A filter that only navigates, compares and combines literals is judged on the
 * dispatcher's thread at a cost its shape bounds (core/automations/filterPlan.ts); any other — or one whose event holds
 * what only JSONata can judge — in the sandbox, within the expression budget and the operator's share. Nothing is
 * dropped for load: an operator past its share gets `over_share`, and its events wait in the outbox for its share to
 * refill. Only the filter's own failure (its error, its own CPU or memory budget) costs an automation an event, and the
 * dispatcher records it as a skipped trigger.
 */
export class EventFilters {
  constructor(
    private readonly deps: {
      sandbox: ExpressionEvaluator;
      logger: Logger;
      onJudged?: (where: FilterWhere) => void;
      onFailed?: (reason: FilterFailure) => void;
      waitMs?: number;
    },
  ) {}

  /** Whether `event` passes the trigger's filter (`pass` when it has none). */
  async judge(trigger: EventTrigger, event: InternalEvent): Promise<FilterVerdict> {
    if (!trigger.filter) return { kind: 'pass' };
    const { automation } = trigger;
    const context = {
      trigger: event,
      nodes: {},
      workflow: { id: automation.id, name: automation.name, version: automation.version },
      run: { id: '', source: 'event' },
    };
    if (trigger.filter.plan.inline) {
      const inline = passesInline(trigger.filter.plan.inline, context);
      if (inline !== NOT_INLINE) {
        this.deps.onJudged?.('inline');
        return { kind: inline ? 'pass' : 'reject' };
      }
    }
    this.deps.onJudged?.('sandbox');
    const outcome = await this.deps.sandbox.evaluate(
      automation.operator_id,
      { kind: 'condition', expression: trigger.filter.source, field: 'params.filter', context },
      { waitMs: this.deps.waitMs ?? FILTER_WAIT_MS },
    );
    if (outcome.ok) return { kind: outcome.value === true ? 'pass' : 'reject' };
    if (outcome.code === 'EXPRESSION_BUDGET_EXCEEDED') return { kind: 'over_share' };
    // JSONata messages can quote the event's values (personal data): the log names the automation, event and code only.
    this.deps.logger.warn(
      { automationId: automation.id, triggerNodeId: trigger.node.id, eventId: event.id, code: outcome.code },
      'event filter failed; the event is recorded as a skipped trigger of this automation',
    );
    this.deps.onFailed?.(FAILURES[outcome.code] ?? 'error');
    return { kind: 'failed', code: outcome.code, message: outcome.message };
  }
}
