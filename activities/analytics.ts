import type { Db } from '../db/knex';
import { refreshAnalyticsViews } from '../db/queries/analyticsRefresh';
import { BOOKKEEPING, type ActivityDeclarations } from './declarations';

export function createAnalyticsActivities({ db }: { db: Db }) {
  return {
    /** Refreshes the analytics views CONCURRENTLY; returns the recorded refresh time (ISO). A failure is transient and retried. */
    async refreshAnalytics(_input: Record<string, never> = {}): Promise<{ refreshedAt: string }> {
      return { refreshedAt: (await refreshAnalyticsViews(db)).toISOString() };
    },
  };
}

/** How each of these activities meets the budget of large data (declarations.ts). */
export const ANALYTICS_ACTIVITIES = {
  refreshAnalytics: BOOKKEEPING,
} satisfies ActivityDeclarations<typeof createAnalyticsActivities>;
