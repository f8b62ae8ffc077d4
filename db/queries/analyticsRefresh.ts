import type { Db } from '../knex';
import { catchUpRollups, lastRollupTime } from './analyticsRollup';

/**
 * `POST /refresh` and the `analytics-refresh` Schedule: a catch-up pass of the per-operator rollups (issue 45), which
 * replaced the whole refresh of the materialized views (the name stays: the handlers and the answer's text call it so).
 * Returns the watermark time: every event committed before it is counted. Throws only when no pass has ever completed
 * within the wait (a transaction held open since before the first pass), which the API answers as a 500.
 */
export async function refreshAnalyticsViews(db: Db): Promise<Date> {
  const refreshedAt = await catchUpRollups(db);
  if (!refreshedAt) throw new Error('analytics rollups have not completed a pass yet');
  return refreshedAt;
}

/** The rollups' watermark time, or null before their first complete pass (the raw tables answer then). */
export async function lastAnalyticsRefresh(db: Db): Promise<Date | null> {
  return lastRollupTime(db);
}
