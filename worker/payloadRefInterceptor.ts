import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { pauseForPayloadBudget, type PayloadBudget } from '../activities/payloadBudget';
import type { PayloadRefs } from '../temporal/payloadRefs';
import { holdsPayloadRef } from '../core/payloadRef';

/**
 * Activities whose results workflow code reads whole: the run's definition must reach the workflow intact (its
 * size is the payload codec's to bound).
 */
const READ_WHOLE = new Set(['beginAutomationRun']);

/**
 * The activities that work on a run's data (an expression, a write, an e-mail, an AI prompt): one whose operator is
 * in debt pauses before its references are resolved. The gateway and HTTP actions pause on their own, before sending;
 * a run's bookkeeping never pauses, so a run can always be recorded.
 */
const PAUSING = new Set(['automationEvaluate', 'automationWriteData', 'sendEmail', 'automationAiChat']);

/** The operator an activity works for: every activity of the platform takes it in its first argument. */
const operatorOf = (args: unknown[]) => {
  const first = args[0] as { operatorId?: unknown } | undefined;
  return typeof first?.operatorId === 'string' ? first.operatorId : undefined;
};

/**
 * Every activity of this worker, regular or local, gets its arguments with references to stored values resolved, and
 * hands back its result with its largest parts stored and referenced (`temporal/payloadRefs.ts`), both scoped to the
 * activity's workflow: large values live in PostgreSQL, and workflows only pass references along. What an activity
 * brings back in counts against its operator's budget of large data (`activities/payloadBudget.ts`): an operator in
 * debt pauses before its next one, so one tenant's megabytes — parsed, copied into the sandbox, sealed — cannot take
 * the worker from the others. Each execution is a scope of the budget's turns: one that resolves references, or whose
 * answer is large, works on it in its operator's turn, and holds it until its own large result is stored.
 */
export function payloadRefInterceptor(refs: PayloadRefs, budget?: PayloadBudget): ActivityInterceptorsFactory {
  return (context) => ({
    inbound: {
      async execute(input, next) {
        const owner = context.info.workflowExecution?.workflowId ?? '';
        const operatorId = operatorOf(input.args);
        const run = async () => {
          const tally = { bytes: 0 };
          if (operatorId && PAUSING.has(context.info.activityType)) await pauseForPayloadBudget(budget, operatorId);
          if (holdsPayloadRef(input.args)) await budget?.takeTurn();
          const args = (await refs.resolve(input.args, owner, tally)) as unknown[];
          if (operatorId) budget?.charge(operatorId, tally.bytes);
          const result = await next({ ...input, args });
          return READ_WHOLE.has(context.info.activityType) ? result : refs.externalize(result, owner);
        };
        return budget && operatorId ? budget.scoped(operatorId, run) : run();
      },
    },
  });
}
