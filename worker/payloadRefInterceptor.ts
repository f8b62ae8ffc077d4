import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { ACTIVITY_DECLARATIONS } from '../activities';
import type { ActivityDeclaration } from '../activities/declarations';
import { pauseForPayloadBudget, type PayloadBudget } from '../activities/payloadBudget';
import type { PayloadRefs } from '../temporal/payloadRefs';
import { holdsPayloadRef, withRefReader } from '../core/payloadRef';

/**
 * What each activity declared beside its code (activities/declarations.ts): whether it pauses for its operator's debt,
 * whether it reads its references itself (`core/payloadRef.ts` `refReaderOf`) and whether workflow code reads its
 * result whole. An activity of no declaration (none in production: the compiler asks for one) neither pauses nor is
 * read whole, and gets its references resolved.
 */
const declarationOf = (activityType: string): ActivityDeclaration | undefined =>
  Object.hasOwn(ACTIVITY_DECLARATIONS, activityType) ? ACTIVITY_DECLARATIONS[activityType as keyof typeof ACTIVITY_DECLARATIONS] : undefined;

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
        const declared = declarationOf(context.info.activityType);
        const run = async () => {
          const tally = { bytes: 0 };
          if (operatorId && declared?.budget === 'pauses') await pauseForPayloadBudget(budget, operatorId);
          if (declared?.args === 'reader') return next({ ...input, args: withRefReader(input.args, (value) => refs.resolve(value, owner)) });
          if (holdsPayloadRef(input.args)) await budget?.takeTurn();
          const args = (await refs.resolve(input.args, owner, tally)) as unknown[];
          if (operatorId) budget?.charge(operatorId, tally.bytes);
          const result = await next({ ...input, args });
          return declared?.result === 'whole' ? result : refs.externalize(result, owner);
        };
        return budget && operatorId ? budget.scoped(operatorId, run) : run();
      },
    },
  });
}
