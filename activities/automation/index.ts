import type { ActivityDeps } from '..';
import { createAiActivity } from './ai';
import { createDataActivities } from './data';
import { dispatchPendingEvents } from './dispatch';
import { createHttpActivity } from './http';
import { createRunActivities } from './runs';

/** Every activity of operator automations: run bookkeeping, the actions, and the outbox sweep. */
export function createAutomationActivities(deps: ActivityDeps) {
  return {
    ...createRunActivities(deps),
    ...createHttpActivity(deps),
    ...createDataActivities(deps),
    ...createAiActivity(deps),

    /** The `outbox-sweep` Schedule's pass: dispatches whatever the listener missed. */
    async sweepOutboxEvents(): Promise<{ claimed: number; started: number }> {
      if (!deps.startEventRun) throw new Error('the worker was created without a Temporal client');
      return dispatchPendingEvents({ db: deps.db, logger: deps.logger, keyring: deps.keyring, startEventRun: deps.startEventRun });
    },
  };
}
