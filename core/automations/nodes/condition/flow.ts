import { isObject, type ConditionFlow } from '../flow';

/** What workflow code reads of `condition` (../flow.ts): every edge leaving it follows the yes or the no branch. */
export const flow = {
  group: 'condition',
  branches: 'required',
  branchOf: (output) => isObject(output) && output.result === true,
} as const satisfies ConditionFlow;
