import { isObject, type ActionFlow } from '../flow';

/**
 * What workflow code reads of `action.wait_for_event` (../flow.ts): an edge may carry `when: true` (the event came)
 * or `when: false` (timed out); one without `when` is always taken.
 */
export const flow = {
  group: 'action',
  branches: 'optional',
  branchOf: (output) => isObject(output) && output.happened === 'event',
  marketing: null,
  inline: null,
} as const satisfies ActionFlow;
