import { z } from 'zod';
import { currentNgrDefinition } from '../../commands/analytics/ngrDefinition';
import { isoDay, lastDays } from '../../core/analyticsParams';
import { rawCohortFigures, RETENTION_DAYS } from '../../db/queries/analyticsCohorts';
import { viewCohortFigures } from '../../db/queries/analyticsCohortsView';
import { lastAnalyticsRefresh } from '../../db/queries/analyticsRefresh';
import { AppError } from '../errors';
import { registry } from '../openapi/registry';
import { rangeOf, readFigures, scopeOf } from './context';
import { KpisQuery } from './schema';
import { analytics } from './area';

/** A cohort range spans at most this many days (about 105 weeks or 24 months of rows). */
export const MAX_COHORT_DAYS = 731;
const DAY_MS = 86_400_000;

export const CohortsQuery = KpisQuery.extend({
  range: z
    .string()
    .min(1)
    .max(50)
    .optional()
    .openapi({
      description: `7d, 14d, 30d, 90d or <start>:<end> ISO dates (UTC days, inclusive) of the FTDs; default the last 180 days, at most ${MAX_COHORT_DAYS}`,
    }),
  grain: z.enum(['week', 'month']).default('month').openapi({ description: 'Cohorts by FTD week (Monday, UTC) or month; default month' }),
  churn_days: z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().int().min(1).max(365)).optional().openapi({
    description:
      "A player is churned after this many days without a round or a completed deposit; 1 to 365, default the operator's `churnDays` setting (30 unless set)",
  }),
});

const count = (description: string) => z.number().int().openapi({ description });
const Retention = z.object({
  matured: count('Cohort players whose day N has begun (FTD day + N ≤ as_of)'),
  retained: count('Of those, players with a game round or a completed deposit in the currency on exactly day N'),
  rate: z.number().nullable().openapi({ description: 'retained ÷ matured, 4 decimals; null while no player has reached day N' }),
});
export const CohortSchema = registry.register(
  'Cohort',
  z.object({
    cohort: z.string().openapi({ description: 'First day of the FTD week (Monday) or month, UTC' }),
    players: count('Players whose first completed deposit ever fell in the cohort, in this currency'),
    ftd_amount: z.number().openapi({ description: 'Σ amount of those first deposits (minor units)' }),
    retention: z.object(Object.fromEntries(RETENTION_DAYS.map((n) => [`d${n}`, Retention])) as Record<`d${(typeof RETENTION_DAYS)[number]}`, typeof Retention>),
    ggr: z.number().openapi({ description: 'Σ bet − win of the cohort’s rounds in this currency from their FTD to as_of (minor units)' }),
    ggr_per_player: z.number().openapi({ description: 'ggr ÷ players, 2 decimals; 0 for an empty cohort' }),
    bonus_cost: z.number().openapi({ description: 'Σ amount of the cohort’s completed bonuses in this currency from their FTD to as_of (minor units)' }),
    ngr: z.number().openapi({
      description:
        'ggr − bonus_cost − taxes − other deductions by the NGR definition of ngr_definition_version, members grouped by jurisdiction as in /business (minor units)',
    }),
    ngr_per_player: z.number().openapi({ description: 'ngr ÷ players, 2 decimals; 0 for an empty cohort' }),
    churned_players: count('Cohort players whose last round or completed deposit is churn_days or more days before as_of'),
  }),
);

export const CohortsResponse = z.object({
  success: z.literal(true),
  data: z.object({
    currency: z.string(),
    range: z.object({ start: z.string(), end: z.string() }),
    grain: z.enum(['week', 'month']),
    as_of: z.string().openapi({ description: 'The UTC day retention and churn are judged on (today)' }),
    churn_days: z.number().int(),
    refreshed_at: z.string().nullable().openapi({ description: 'When the rollups were last caught up; null when served from the raw tables' }),
    ngr_definition_version: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'The NGR definition version the cohorts’ NGR is computed with; null when none was saved (NGR = GGR − bonus cost)' }),
    cohorts: z.array(CohortSchema),
  }),
});

/** `GET /cohorts`: FTD cohorts of `range` (default the last 180 days) with retention, GGR to date and churn; rollups once a pass has completed, raw tables before. */
export const cohortsHandler = analytics.handler({ input: { query: CohortsQuery } }, async ({ deps, ctx, input: { query } }) => {
  const now = new Date();
  const range = rangeOf(query.range, lastDays(180, now));
  if ((Date.parse(range.end) - Date.parse(range.start)) / DAY_MS + 1 > MAX_COHORT_DAYS)
    throw new AppError(400, 'INVALID_PARAM', `Invalid parameter: range: cohorts span at most ${MAX_COHORT_DAYS} days`, {
      details: [{ field: 'range', message: `cohorts span at most ${MAX_COHORT_DAYS} days` }],
    });
  const scope = await scopeOf(deps, ctx, query.currency);
  const churnDays = query.churn_days ?? (await deps.settings.of(scope.operatorId)).churnDays;
  const asOf = isoDay(now);
  const { refreshedAt, version, cohorts } = await readFigures(deps, async (db) => {
    const refreshedAt = await lastAnalyticsRefresh(db);
    const { version, definition } = await currentNgrDefinition({ db }, scope.operatorId);
    const figures = refreshedAt ? viewCohortFigures : rawCohortFigures;
    return { refreshedAt, version, cohorts: await figures(db, scope, { range, grain: query.grain, asOf, churnDays, ngr: definition }) };
  });
  const refreshed_at = refreshedAt?.toISOString() ?? null;
  ctx.body = {
    success: true,
    data: { currency: scope.currency, range, grain: query.grain, as_of: asOf, churn_days: churnDays, refreshed_at, ngr_definition_version: version, cohorts },
  };
});
