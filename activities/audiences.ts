import type { Logger } from 'pino';
import type { Db } from '../db/knex';
import { runAudiencePass, type AudiencePassResult } from '../db/queries/audiencePass';
import { BOOKKEEPING, type ActivityDeclarations } from './declarations';

/** What a pass did (db/queries/audiencePass.ts). */
export type AudiencePassOutcome = AudiencePassResult;

export function createAudienceActivities({ db, logger }: { db: Db; logger: Logger }) {
  return {
    /**
     * One audience pass (issue 45, docs/analytics.md "Audiences"): re-judges the players whose data changed and those a
     * new day moves, writing `audience.entered`/`audience.exited` with each change. Safe to retry: a re-judged member
     * does not enter again. A failure is transient and retried.
     */
    async refreshAudiences(_input: Record<string, never> = {}): Promise<AudiencePassOutcome> {
      const outcome = await runAudiencePass(db);
      if (outcome.failed > 0) logger.warn({ failed: outcome.failed }, 'audiences failed to evaluate this pass; each is judged whole next pass');
      return outcome;
    },
  };
}

/** How each of these activities meets the budget of large data (declarations.ts). */
export const AUDIENCE_ACTIVITIES = {
  refreshAudiences: BOOKKEEPING,
} satisfies ActivityDeclarations<typeof createAudienceActivities>;
