/**
 * What every activity declares beside its code, read by the worker's payload interceptor
 * (worker/payloadRefInterceptor.ts) instead of lists of names kept elsewhere: a new activity that declares nothing
 * does not compile (`ActivityDeclarations`, composed in ./index.ts).
 */
export interface ActivityDeclaration {
  /**
   * How it meets its operator's budget of large data (./payloadBudget.ts). `pauses`: it works on a run's data (an
   * expression, a write, an e-mail, an AI prompt), so one whose operator is in debt pauses before its references are
   * resolved; `own`: it pauses on its own, before sending (the HTTP and gateway calls); `never`: bookkeeping, which
   * never pauses, so a run can always be recorded.
   */
  budget: 'pauses' | 'own' | 'never';
  /**
   * `referenced`: its result's largest parts are stored and referenced (temporal/payloadRefs.ts); `whole`: workflow
   * code reads the result whole (a run's definition must reach the workflow intact; its size is the payload codec's
   * to bound).
   */
  result: 'referenced' | 'whole';
  /**
   * `resolved`: its arguments reach it with their references to stored values resolved; `reader`: it gets them
   * unresolved, with a reader (core/payloadRef.ts `withRefReader`), and reads one value at a time (the end step of a
   * run stores each large step value apart before reading the next, instead of holding every one at once).
   */
  args: 'resolved' | 'reader';
}

/** One declaration for each activity a factory returns, and none for anything else. */
export type ActivityDeclarations<Factory extends (...args: never[]) => object> = { [Name in keyof ReturnType<Factory>]: ActivityDeclaration };

export const PAUSES: ActivityDeclaration = { budget: 'pauses', result: 'referenced', args: 'resolved' };
export const PAUSES_ITSELF: ActivityDeclaration = { budget: 'own', result: 'referenced', args: 'resolved' };
export const BOOKKEEPING: ActivityDeclaration = { budget: 'never', result: 'referenced', args: 'resolved' };
