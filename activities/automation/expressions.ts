import type { ActivityDeps } from '../deps';
import type { ExpressionOutcome, ExpressionTask } from '../../sandbox/tasks';

export interface EvaluateInput {
  operatorId: string;
  task: ExpressionTask;
}

/** Tenant expressions of a run, evaluated in the worker's sandbox rather than in the workflow's isolate. */
export function createExpressionActivity(deps: ActivityDeps) {
  return {
    /**
     * A condition or a node's templates, within the sandbox's budgets: a local activity, so the outcome is recorded in
     * the run's history and a replay reads it back instead of evaluating again. Tenant failures (an invalid expression,
     * a budget exceeded) are outcomes; a sandbox that cannot take the task throws and the activity is retried.
     */
    async automationEvaluate(input: EvaluateInput): Promise<ExpressionOutcome> {
      if (!deps.sandbox) throw new Error('the worker was created without the expression sandbox');
      return deps.sandbox.evaluate(input.operatorId, input.task);
    },
  };
}
