import { Context } from '@temporalio/activity';
import type { Check, CheckOutcome } from '../../core/automations/backtest';
import type { ExpressionSandbox } from '../../sandbox/expressionSandbox';
import type { ExpressionOutcome, SingleExpressionTask } from '../../sandbox/tasks';

/** Checks sent to the sandbox in one message: everyday conditions evaluate in a few microseconds, far inside one task's budget. */
const BATCH_SIZE = 250;
/** A condition whose evaluation alone is stopped by the CPU budget this many times in a row ends the backtest. */
export const BACKTEST_TIMEOUTS_IN_A_ROW = 3;
/** How often, at most, a page asks whether its backtest is still running, and how long a batch waits for its share at a time. */
const CHECK_EVERY_MS = 1_000;
const SHARE_WAIT_MS = 2_000;

/** Why a page stopped before its end: the backtest is no longer running, or a condition timed out too often. */
export class BacktestStopped extends Error {
  constructor(
    readonly reason: 'not_running' | 'condition_timeout',
    message: string,
  ) {
    super(message);
    this.name = 'BacktestStopped';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The activity's cancellation, when this runs inside one (Temporal delivers it with a heartbeat's answer). */
function activityContext(): Context | undefined {
  try {
    return Context.current();
  } catch {
    return undefined;
  }
}

/**
 * The evaluator of one backtest page (`EvaluateChecks`), within the backtests' own sandbox and budgets: batches of
 * {@link BATCH_SIZE}, each split while the sandbox stops it on the CPU budget, down to the one check at fault. Before
 * each batch it heartbeats and, at most every second, asks `stillRunning` — so a cancelled backtest stops within about
 * a second plus one task's budget, leaving nothing of it queued in the sandbox. A batch refused for the organisation's
 * share of the backtest sandbox waits for it, two seconds at a time, and is sent again. A condition stopped by the
 * budget on its own {@link BACKTEST_TIMEOUTS_IN_A_ROW} times in a row (no success of it between) throws
 * {@link BacktestStopped} `condition_timeout`, naming it.
 */
export function backtestEvaluator(sandbox: ExpressionSandbox, operatorId: string, stillRunning: () => Promise<boolean>, timeoutMs: number) {
  let checkedAt = 0;
  const timeoutsInRow = new Map<string, number>();

  const ensureRunning = async () => {
    const context = activityContext();
    context?.heartbeat();
    if (context?.cancellationSignal.aborted) throw new BacktestStopped('not_running', 'The backtest job was cancelled');
    if (Date.now() - checkedAt < CHECK_EVERY_MS) return;
    checkedAt = Date.now();
    if (!(await stillRunning())) throw new BacktestStopped('not_running', 'The backtest is no longer running');
  };

  const send = async (tasks: SingleExpressionTask[]): Promise<ExpressionOutcome> => {
    for (;;) {
      await ensureRunning();
      const outcome = await sandbox.evaluate(operatorId, { kind: 'batch', tasks }, { waitMs: SHARE_WAIT_MS });
      if (outcome.ok || outcome.code !== 'EXPRESSION_BUDGET_EXCEEDED') return outcome;
      await sleep(Math.min(SHARE_WAIT_MS, Math.max(50, sandbox.waitMs(operatorId))));
    }
  };

  const count = (task: SingleExpressionTask, outcome: CheckOutcome): void => {
    if (task.kind !== 'condition') return;
    const key = `${task.field}\u0000${task.expression}`;
    if (outcome.ok || outcome.code !== 'EXPRESSION_TIMEOUT') {
      timeoutsInRow.delete(key);
      return;
    }
    const inRow = (timeoutsInRow.get(key) ?? 0) + 1;
    timeoutsInRow.set(key, inRow);
    if (inRow >= BACKTEST_TIMEOUTS_IN_A_ROW) {
      throw new BacktestStopped(
        'condition_timeout',
        `The expression at ${task.field} (${task.expression.slice(0, 200)}) took more than the ${timeoutMs} ms of CPU an expression may use ${inRow} times in a row`,
      );
    }
  };

  const evaluateBatch = async (tasks: SingleExpressionTask[]): Promise<CheckOutcome[]> => {
    const outcome = await send(tasks);
    if (outcome.ok) {
      const outcomes = outcome.value as ExpressionOutcome[];
      tasks.forEach((task, index) => count(task, outcomes[index]!));
      return outcomes;
    }
    if (tasks.length === 1) {
      count(tasks[0]!, outcome);
      return [outcome];
    }
    const half = Math.ceil(tasks.length / 2);
    return [...(await evaluateBatch(tasks.slice(0, half))), ...(await evaluateBatch(tasks.slice(half)))];
  };

  return async (checks: Check[]): Promise<CheckOutcome[]> => {
    const outcomes: CheckOutcome[] = [];
    for (let i = 0; i < checks.length; i += BATCH_SIZE) {
      const tasks = checks.slice(i, i + BATCH_SIZE).map((check): SingleExpressionTask => ({ kind: 'condition', ...check }));
      outcomes.push(...(await evaluateBatch(tasks)));
    }
    return outcomes;
  };
}
