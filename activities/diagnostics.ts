import type { Db } from '../db/knex';
import { BOOKKEEPING, type ActivityDeclarations } from './declarations';

export function createDiagnosticsActivities({ db }: { db: Db }) {
  return {
    /** Reads the database clock: a round trip through the worker's own pool. */
    async databaseClock(_input: Record<string, never>): Promise<{ now: string }> {
      const result = await db.raw<{ rows: Array<{ now: Date }> }>('select now() as now');
      const now = result.rows[0]?.now;
      if (!now) throw new Error('database returned no time');
      return { now: now.toISOString() };
    },
  };
}

/** How each of these activities meets the budget of large data (declarations.ts). */
export const DIAGNOSTICS_ACTIVITIES = {
  databaseClock: BOOKKEEPING,
} satisfies ActivityDeclarations<typeof createDiagnosticsActivities>;
