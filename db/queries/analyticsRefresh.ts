import type { Db } from '../knex';

export const ANALYTICS_VIEWS = ['analytics_daily_mv', 'analytics_player_days_mv', 'analytics_games_mv', 'analytics_providers_mv'] as const;
const VIEW_SET = 'analytics';

/**
 * Refreshes every aggregate view CONCURRENTLY (reads keep being served from the old contents meanwhile) and records
 * the time. The views hold every operator's rows, so one refresh serves all operators.
 */
export async function refreshAnalyticsViews(db: Db): Promise<Date> {
  for (const view of ANALYTICS_VIEWS) await db.raw(`REFRESH MATERIALIZED VIEW CONCURRENTLY ${view}`);
  const [row] = await db('analytics_refreshes')
    .insert({ view_set: VIEW_SET, refreshed_at: db.fn.now() })
    .onConflict('view_set')
    .merge()
    .returning('refreshed_at');
  return row.refreshed_at as Date;
}

/** The last refresh of the views, or null when they were never refreshed (the raw tables answer then). */
export async function lastAnalyticsRefresh(db: Db): Promise<Date | null> {
  const row = await db('analytics_refreshes').where({ view_set: VIEW_SET }).first('refreshed_at');
  return row ? (row.refreshed_at as Date) : null;
}
