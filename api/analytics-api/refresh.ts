import { refreshAnalyticsViews } from '../../db/queries/analyticsRefresh';
import { analytics } from './area';

/** `POST /refresh`: refreshes the aggregate views now (CONCURRENTLY: reads are not blocked). */
export const refreshHandler = analytics.handler({}, async ({ deps, ctx }) => {
  const refreshedAt = await refreshAnalyticsViews(deps.db);
  ctx.body = { success: true, message: 'Views refreshed', refreshed_at: refreshedAt.toISOString() };
});
