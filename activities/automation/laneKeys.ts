import { releaseLaneKeys, type LaneScope } from '../../db/queries/laneKeys';
import { BOOKKEEPING, type ActivityDeclarations } from '../declarations';
import type { ActivityDeps } from '../deps';

/**
 * A lane that ends stops counting against its automation's live run-control keys (worker/laneKeys.ts) at once, so the
 * dispatcher need not ask Temporal which lanes have closed: a new key waiting at the cap is admitted on its next pass.
 */
export function createLaneKeyActivities({ db, lanePlaces }: Pick<ActivityDeps, 'db' | 'lanePlaces'>) {
  return {
    /**
     * Where a run the lane releases on its own (its debounce's quiet period over, or its queue's turn come) goes in its
     * organisation's share of starts: how many ms until its place, counted in flight from there. The dispatcher placed
     * the lane's trigger when it handed it over, but not the moment the lane lets it go: 500 debounced keys ending their
     * quiet period together would otherwise start 500 runs at once.
     */
    async placeLaneRun(input: LaneScope & { runWorkflowId: string }): Promise<number> {
      return lanePlaces?.place(input.operatorId, input.runWorkflowId) ?? 0;
    },

    /** Stops counting the automation's lane `laneId`; 0 when it was not counted (already found closed by the dispatcher). */
    async releaseLaneKey(input: LaneScope & { laneId: string }): Promise<number> {
      return releaseLaneKeys(db, { operatorId: input.operatorId, automationId: input.automationId }, [input.laneId]);
    },
  };
}

/** How each of these activities meets the budget of large data (../declarations.ts). */
export const LANE_KEY_ACTIVITIES = {
  releaseLaneKey: BOOKKEEPING,
  placeLaneRun: BOOKKEEPING,
} satisfies ActivityDeclarations<typeof createLaneKeyActivities>;
