/**
 * What a page that has just started a run (a rerun) hands to the run's page as react-router's location state: the
 * run may not be recorded yet, so its page reads a 404 again for a while instead of showing "No such run.".
 */
export interface StartedRunState {
  startedAt: number;
}
