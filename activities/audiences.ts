import type { Db } from '../db/knex';
import { runAudiencePass } from '../db/queries/audiencePass';
import { BOOKKEEPING, type ActivityDeclarations } from './declarations';

export interface AudiencePassOutcome {
  events: number;
  evaluations: number;
  entered: number;
  exited: number;
  complete: boolean;
}

export function createAudienceActivities({ db }: { db: Db }) {
  return {
    /**
     * One audience pass (issue 45, docs/analytics.md "Audiences"): re-judges the players whose data changed and those a
     * new day moves, writing `audience.entered`/`audience.exited` with each change. Safe to retry: a re-judged member
     * does not enter again. A failure is transient and retried.
     */
    async refreshAudiences(_input: Record<string, never> = {}): Promise<AudiencePassOutcome> {
      return runAudiencePass(db);
    },
  };
}

/** How each of these activities meets the budget of large data (declarations.ts). */
export const AUDIENCE_ACTIVITIES = {
  refreshAudiences: BOOKKEEPING,
} satisfies ActivityDeclarations<typeof createAudienceActivities>;
