import type { ActivityDeps } from '../deps';
import { createAiActivity } from './ai';
import { createBacktestActivities } from './backtests';
import { createDataActivities } from './data';
import { createExpressionActivity } from './expressions';
import { createGateActivities } from './gate';
import { createHttpActivity } from './http';
import { createReplayActivities } from './replays';
import { createRunActivities } from './runs';
import { createRunWaitActivities } from './waits';

/** Every activity of operator automations: run bookkeeping, the actions, and the outbox sweep. */
export function createAutomationActivities(deps: ActivityDeps) {
  return {
    ...createRunActivities(deps),
    ...createReplayActivities(deps),
    ...createBacktestActivities(deps),
    ...createHttpActivity(deps),
    ...createDataActivities(deps),
    ...createAiActivity(deps),
    ...createExpressionActivity(deps),
    ...createRunWaitActivities(deps),
    ...createGateActivities(deps),

    /** The `run-watchdog` Schedule's pass: closes runs whose workflow cannot finish (docs/workflows.md#runs-that-cannot-finish). */
    async watchRuns(): Promise<{ checked: number; closed: number }> {
      if (!deps.reconcileRuns) throw new Error('the worker was created without the run watchdog');
      return deps.reconcileRuns();
    },

    /** The `outbox-sweep` Schedule's pass: dispatches whatever the listener missed, with the dispatcher's own pass. */
    async sweepOutboxEvents(): Promise<{ claimed: number; started: number }> {
      if (!deps.dispatchOutbox) throw new Error('the worker was created without the outbox dispatch pass');
      return deps.dispatchOutbox();
    },
  };
}
