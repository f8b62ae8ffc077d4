import { NO_BRANCHES, type ActionFlow } from '../flow';

/** What workflow code reads of `action.note` (../flow.ts): it runs inline, touches nothing and is never gated. */
export const flow = {
  group: 'action',
  ...NO_BRANCHES,
  marketing: null,
  inline: () => ({ noted: true }),
} as const satisfies ActionFlow;
