import type { ActivityDeps } from '..';
import { createAiActivity } from './ai';
import { createDataActivities } from './data';
import { createExpressionActivity } from './expressions';
import { createHttpActivity } from './http';
import { createRunActivities } from './runs';

/** Every activity of operator automations: run bookkeeping, the actions, and the outbox sweep. */
export function createAutomationActivities(deps: ActivityDeps) {
  return {
    ...createRunActivities(deps),
    ...createHttpActivity(deps),
    ...createDataActivities(deps),
    ...createAiActivity(deps),
    ...createExpressionActivity(deps),

    /** The `outbox-sweep` Schedule's pass: dispatches whatever the listener missed, with the dispatcher's own pass. */
    async sweepOutboxEvents(): Promise<{ claimed: number; started: number }> {
      if (!deps.dispatchOutbox) throw new Error('the worker was created without the outbox dispatch pass');
      return deps.dispatchOutbox();
    },
  };
}
