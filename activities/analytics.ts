import type { Db } from '../db/knex';
import { runRollupPass } from '../db/queries/analyticsRollup';
import { BOOKKEEPING, type ActivityDeclarations } from './declarations';

/** Batches one scheduled pass may fold (of `ROLLUP_BATCH_EVENTS` each): an import larger than that is caught up over the next passes. */
export const ROLLUP_PASS_MAX_BATCHES = 20;

export interface RollupPassOutcome {
  /** The rollups' watermark time (ISO), null before their first complete pass. */
  refreshedAt: string | null;
  events: number;
  batches: number;
  erased: number;
  complete: boolean;
}

export function createAnalyticsActivities({ db }: { db: Db }) {
  return {
    /**
     * One catch-up pass of the analytics rollups (issue 45): folds the events that arrived since the last pass, in
     * batches each committed with its cursor, so a retry after a crash counts nothing twice. A failure is transient and retried.
     */
    async refreshAnalytics(_input: Record<string, never> = {}): Promise<RollupPassOutcome> {
      const pass = await runRollupPass(db, { maxBatches: ROLLUP_PASS_MAX_BATCHES });
      return { refreshedAt: pass.refreshedAt?.toISOString() ?? null, events: pass.events, batches: pass.batches, erased: pass.erased, complete: pass.complete };
    },
  };
}

/** How each of these activities meets the budget of large data (declarations.ts). */
export const ANALYTICS_ACTIVITIES = {
  refreshAnalytics: BOOKKEEPING,
} satisfies ActivityDeclarations<typeof createAnalyticsActivities>;
