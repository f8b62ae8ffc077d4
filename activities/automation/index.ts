import { BOOKKEEPING, type ActivityDeclarations } from '../declarations';
import type { ActivityDeps } from '../deps';
import { AI_ACTIVITIES, createAiActivity } from './ai';
import { BACKTEST_ACTIVITIES, createBacktestActivities } from './backtests';
import { createDataActivities, DATA_ACTIVITIES } from './data';
import { createExpressionActivity, EXPRESSION_ACTIVITIES } from './expressions';
import { createGateActivities, GATE_ACTIVITIES } from './gate';
import { createHttpActivity, HTTP_ACTIVITIES } from './http';
import { createPlayerActivities, PLAYER_ACTIVITIES } from './player';
import { createLaneKeyActivities, LANE_KEY_ACTIVITIES } from './laneKeys';
import { createLaneSkipActivities, LANE_SKIP_ACTIVITIES } from './laneSkips';
import { createReplayActivities, REPLAY_ACTIVITIES } from './replays';
import { createRunActivities, RUN_ACTIVITIES } from './runs';
import { createRunWaitActivities, RUN_WAIT_ACTIVITIES } from './waits';

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
    ...createPlayerActivities(deps),
    ...createLaneSkipActivities(deps),
    ...createLaneKeyActivities(deps),

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

/** How each automation activity meets the budget of large data (../declarations.ts). */
export const AUTOMATION_ACTIVITIES = {
  ...RUN_ACTIVITIES,
  ...REPLAY_ACTIVITIES,
  ...BACKTEST_ACTIVITIES,
  ...HTTP_ACTIVITIES,
  ...DATA_ACTIVITIES,
  ...AI_ACTIVITIES,
  ...EXPRESSION_ACTIVITIES,
  ...RUN_WAIT_ACTIVITIES,
  ...GATE_ACTIVITIES,
  ...PLAYER_ACTIVITIES,
  ...LANE_SKIP_ACTIVITIES,
  ...LANE_KEY_ACTIVITIES,
  watchRuns: BOOKKEEPING,
  sweepOutboxEvents: BOOKKEEPING,
} satisfies ActivityDeclarations<typeof createAutomationActivities>;
