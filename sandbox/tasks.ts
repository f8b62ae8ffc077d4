import type { RunContext } from '../core/automations/expressions';

/**
 * One evaluation the sandbox runs for a tenant: a condition or event filter (`expression`, answered true or false
 * with JSONata's truthiness) or the `{{ }}` templates of a node's params (answered with the rendered params).
 * `field` names where the expression sits in the definition (`params.expression`, `params.filter`); templates report
 * their own path as they go.
 */
export type SingleExpressionTask =
  { kind: 'condition'; expression: string; field: string; context: RunContext } | { kind: 'render'; params: Record<string, unknown>; context: RunContext };

/**
 * Many tasks in one message, answered with one outcome each (the value is `ExpressionOutcome[]`): a backtest's
 * conditions over a page of history (activities/automation/backtests.ts). The batch has one task's budget, so whoever
 * sends one sizes it to fit and splits it when it does not.
 */
export type ExpressionTask = SingleExpressionTask | { kind: 'batch'; tasks: SingleExpressionTask[] };

export type ExpressionFailureCode =
  'EXPRESSION_ERROR' | 'EXPRESSION_TIMEOUT' | 'EXPRESSION_MEMORY_LIMIT' | 'EXPRESSION_OUTPUT_TOO_LARGE' | 'EXPRESSION_BUDGET_EXCEEDED';

/** The outcome of one task: tenant failures are values (nothing to retry); only a broken sandbox throws. */
export type ExpressionOutcome = { ok: true; value: unknown } | { ok: false; code: ExpressionFailureCode; message: string; field: string };

/** Parent → sandbox process: one task at a time. */
export interface ParentMessage {
  id: number;
  task: ExpressionTask;
}

/**
 * Sandbox process → parent: it is ready (naming itself with its token), it began a task (the budget starts), it
 * entered a field, or the outcome.
 */
export type SandboxMessage =
  { ready: true; token: string } | { id: number; started: true } | { id: number; field: string } | { id: number; outcome: ExpressionOutcome };

/** What evaluates tenant expressions for a caller: the worker's sandbox (`sandbox/expressionSandbox.ts`), within its budgets. */
export interface ExpressionEvaluator {
  /** `waitMs`: how long the task may wait for its operator's share before it answers `EXPRESSION_BUDGET_EXCEEDED`. */
  evaluate(operatorId: string, task: ExpressionTask, options?: { waitMs?: number }): Promise<ExpressionOutcome>;
}
