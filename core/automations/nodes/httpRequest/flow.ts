import { markedByDesigner, NO_BRANCHES, type ActionFlow } from '../flow';

/** What workflow code reads of `action.http_request` (../flow.ts). */
export const flow = { group: 'action', ...NO_BRANCHES, marketing: markedByDesigner, inline: null } as const satisfies ActionFlow;
