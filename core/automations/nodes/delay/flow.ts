import { NO_BRANCHES, type ActionFlow } from '../flow';

/** What workflow code reads of `action.delay` (../flow.ts). */
export const flow = { group: 'action', ...NO_BRANCHES, marketing: null, inline: null } as const satisfies ActionFlow;
