import type { LanePlaces } from '../activities/deps';
import type { InFlightRuns } from './inFlight';
import type { StartAdmission } from './startAdmission';

/**
 * Places for the runs a run-control lane releases on its own (workflows/automationLane.ts, `placeLaneRun`): a debounced
 * trigger whose quiet period is over, a queued one whose turn has come. The dispatcher admitted the trigger when it
 * handed it to the lane, but the lane lets it go later, when nobody is asked: 500 keys of one automation debounced by
 * one burst end their quiet periods together. Each such run takes a place among its organisation's paced lane starts
 * (`StartAdmission.pace`, `laneGapMs`: at once while the organisation is alone or light, else spaced over its share of
 * the platform's rate, as the dispatcher spaces the lanes it starts), takes a start of its share when one is there,
 * and is counted in flight from its place, so its organisation's own events wait behind it. Nothing is refused: the
 * lane waits for its place on a durable timer and starts the run.
 */
export function lanePlaces(starts: Pick<StartAdmission, 'take' | 'laneGapMs' | 'pace'>, inFlight: Pick<InFlightRuns, 'add' | 'light'>): LanePlaces {
  return {
    place(operatorId, runWorkflowId) {
      const light = inFlight.light(operatorId, 1);
      // Taken for the rate's bookkeeping and the share (a refusal makes the organisation backlogged); the place decides.
      starts.take(operatorId, 1, light);
      const inMs = starts.pace(operatorId, starts.laneGapMs(operatorId, light));
      inFlight.add(operatorId, runWorkflowId, false, inMs);
      return inMs;
    },
  };
}
