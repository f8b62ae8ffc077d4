import { NO_BRANCHES, type TriggerFlow } from '../flow';

/** What workflow code reads of `trigger.webhook` (../flow.ts). */
export const flow = { group: 'trigger', ...NO_BRANCHES } as const satisfies TriggerFlow;
