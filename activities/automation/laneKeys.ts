import { releaseLaneKeys, type LaneScope } from '../../db/queries/laneKeys';
import { BOOKKEEPING, type ActivityDeclarations } from '../declarations';
import type { ActivityDeps } from '../deps';

/**
 * A lane that ends stops counting against its automation's live run-control keys (worker/laneKeys.ts) at once, so the
 * dispatcher need not ask Temporal which lanes have closed: a new key waiting at the cap is admitted on its next pass.
 */
export function createLaneKeyActivities({ db }: Pick<ActivityDeps, 'db'>) {
  return {
    /** Stops counting the automation's lane `laneId`; 0 when it was not counted (already found closed by the dispatcher). */
    async releaseLaneKey(input: LaneScope & { laneId: string }): Promise<number> {
      return releaseLaneKeys(db, { operatorId: input.operatorId, automationId: input.automationId }, [input.laneId]);
    },
  };
}

/** How each of these activities meets the budget of large data (../declarations.ts). */
export const LANE_KEY_ACTIVITIES = {
  releaseLaneKey: BOOKKEEPING,
} satisfies ActivityDeclarations<typeof createLaneKeyActivities>;
