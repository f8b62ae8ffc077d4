import { NO_BRANCHES, purposeOf, type ActionFlow } from '../flow';

/**
 * What workflow code reads of `action.send_email` (../flow.ts). An email is always a marketing step: the gate cannot
 * tell an offer from a notice by its text; `purpose` only says whether it offers a bonus.
 */
export const flow = {
  group: 'action',
  ...NO_BRANCHES,
  marketing: (params) => ({ purpose: purposeOf(params) ?? 'marketing', channel: 'email' }),
  inline: null,
} as const satisfies ActionFlow;
