import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { withOpenedPlayer } from '../../core/playerSeal';
import type { ActivityDeps } from '../deps';
import type { ExpressionOutcome, ExpressionTask } from '../../sandbox/tasks';
import { PAUSES, type ActivityDeclarations } from '../declarations';

export interface EvaluateInput {
  operatorId: string;
  task: ExpressionTask;
}

/** How long one attempt waits for the operator's share of the sandbox: inside the step's 30 s, with room to answer. */
const ATTEMPT_WAIT_MS = 25_000;
/** The step's attempts (workflows/automation/expressions.ts): the last one answers the refusal instead of trying again. */
const ATTEMPTS = 5;

/** Tenant expressions of a run, evaluated in the worker's sandbox rather than in the workflow's isolate. */
export function createExpressionActivity(deps: ActivityDeps) {
  return {
    /**
     * A condition or a node's templates, within the sandbox's budgets: a local activity, so the outcome is recorded in
     * the run's history and a replay reads it back instead of evaluating again. An invalid expression or one past its
     * own CPU or memory budget is an outcome. An organisation past its share of the sandbox waits: each attempt waits
     * up to {@link ATTEMPT_WAIT_MS} and is then retried, so a burst slows its runs rather than failing them; only the
     * last attempt answers `EXPRESSION_BUDGET_EXCEEDED`. A sandbox that cannot take the task throws and is retried.
     * The run's sealed player, when the expression names it, is opened here and nowhere else (core/playerSeal.ts).
     */
    async automationEvaluate(input: EvaluateInput): Promise<ExpressionOutcome> {
      if (!deps.sandbox) throw new Error('the worker was created without the expression sandbox');
      const task =
        input.task.kind === 'batch' ? input.task : { ...input.task, context: await withOpenedPlayer(deps.keyring, input.operatorId, input.task.context) };
      const outcome = await deps.sandbox.evaluate(input.operatorId, task, { waitMs: ATTEMPT_WAIT_MS });
      if (!outcome.ok && outcome.code === 'EXPRESSION_BUDGET_EXCEEDED' && Context.current().info.attempt < ATTEMPTS)
        throw ApplicationFailure.retryable(outcome.message, 'EXPRESSION_BUDGET_EXCEEDED');
      return outcome;
    },
  };
}

/** How each of these activities meets the budget of large data (../declarations.ts). */
export const EXPRESSION_ACTIVITIES = {
  automationEvaluate: PAUSES,
} satisfies ActivityDeclarations<typeof createExpressionActivity>;
