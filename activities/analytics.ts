import type { Db } from '../db/knex';
import { refreshAnalyticsViews } from '../db/queries/analyticsRefresh';

export function createAnalyticsActivities({ db }: { db: Db }) {
  return {
    /** Refreshes the analytics views CONCURRENTLY; returns the recorded refresh time (ISO). A failure is transient and retried. */
    async refreshAnalytics(_input: Record<string, never> = {}): Promise<{ refreshedAt: string }> {
      return { refreshedAt: (await refreshAnalyticsViews(db)).toISOString() };
    },
  };
}
