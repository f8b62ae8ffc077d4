import type { Context } from 'koa';
import { refreshAnalyticsViews } from '../../db/queries/analyticsRefresh';
import type { AppDeps } from '../deps';

/** `POST /refresh`: refreshes the aggregate views now (CONCURRENTLY: reads are not blocked). */
export async function refreshHandler(deps: AppDeps, ctx: Context): Promise<void> {
  const refreshedAt = await refreshAnalyticsViews(deps.db);
  ctx.body = { success: true, message: 'Views refreshed', refreshed_at: refreshedAt.toISOString() };
}
