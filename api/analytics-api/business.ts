import { z } from 'zod';
import { isoDay, lastDays, type DayRange } from '../../core/analyticsParams';
import { ngrFigures } from '../../commands/analytics/ngrDefinition';
import { businessFigures, TRANSACTION_STATUSES } from '../../db/queries/analyticsBusiness';
import { viewBusinessPeriods } from '../../db/queries/analyticsBusinessView';
import { ngrParts, viewNgrParts } from '../../db/queries/analyticsNgr';
import { lastAnalyticsRefresh } from '../../db/queries/analyticsRefresh';
import type { AnalyticsScope } from '../../db/queries/analyticsTypes';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { registry } from '../openapi/registry';
import { rangeOf, readFigures, scopeOf } from './context';
import { NgrFiguresSchema } from './ngr';
import { KpisQuery } from './schema';
import { analytics } from './area';

export const BusinessQuery = KpisQuery;

const DAY_MS = 86_400_000;

/** The range of the same length that ends the day before `range` starts. */
export function previousRange(range: DayRange): DayRange {
  const start = Date.parse(`${range.start}T00:00:00Z`);
  const days = (Date.parse(`${range.end}T00:00:00Z`) - start) / DAY_MS + 1;
  return { start: isoDay(new Date(start - days * DAY_MS)), end: isoDay(new Date(start - DAY_MS)) };
}

const count = (description: string) => z.number().int().openapi({ description });
const money = (description: string) => z.number().openapi({ description: `${description} (minor units of \`currency\`)` });
const Flow = (what: string) =>
  z.object({
    completed_amount: money(`Σ amount of completed ${what}s whose latest status in the range is completed`),
    counts: z
      .object(
        Object.fromEntries(TRANSACTION_STATUSES.map((status) => [status, count(`${what}s at status ${status}`)])) as Record<
          (typeof TRANSACTION_STATUSES)[number],
          z.ZodNumber
        >,
      )
      .openapi({ description: `${what}s per status (spec 2.13); one transaction id counts once, at its latest status in the range; no status = completed` }),
  });

export const BusinessFiguresSchema = registry.register(
  'BusinessFigures',
  z.object({
    registrations: count('Players created in the range (erased players included, never identified)'),
    ftd_count: count('Players whose first completed deposit ever occurred in the range, in this currency'),
    ftd_amount: money('Σ amount of those first deposits'),
    converted_players: count('Players registered in the range whose first completed deposit, on or before the range end, was in this currency'),
    conversion_rate: z.number().openapi({ description: 'converted_players ÷ registrations, 4 decimals; 0 without registrations' }),
    deposits: Flow('deposit'),
    withdrawals: Flow('withdrawal'),
    ggr: money('Σ bet_amount − win_amount of game rounds in the range'),
    active_players: count('Players with at least one game round in the range in this currency'),
    depositing_players: count('Players with at least one completed deposit in the range in this currency'),
    arpu: money('ggr ÷ active_players, 2 decimals; 0 without active players'),
    arppu: money('ggr ÷ depositing_players, 2 decimals; 0 without depositing players'),
  }),
);

const Range = z.object({ start: z.string(), end: z.string() });
export const BusinessResponse = z.object({
  success: z.literal(true),
  data: z.object({
    currency: z.string(),
    range: Range,
    previous_range: Range.openapi({ description: 'The same number of days, ending the day before range.start' }),
    refreshed_at: z.string().nullable().openapi({
      description: 'When the rollups the figures come from were last caught up (events after it are not counted yet); null when served from the raw tables',
    }),
    current: BusinessFiguresSchema,
    previous: BusinessFiguresSchema,
    ngr: z
      .object({
        definition_version: z
          .number()
          .int()
          .nullable()
          .openapi({ description: 'The NGR definition version used (GET /ngr-definition); null: none saved, no taxes or other deductions' }),
        current: NgrFiguresSchema,
        previous: NgrFiguresSchema,
      })
      .openapi({ description: 'NGR = GGR − bonus cost − taxes − other deductions, with the operator’s current definition (docs/analytics.md "NGR")' }),
  }),
});

/**
 * `GET /business`: the business figures of `range` (default 30 days) and of the period before it, in one currency.
 * From the rollups once a pass has completed: in the transaction that read the pass, both periods in one statement and
 * their NGR in another, seven round trips on one connection where four transactions took eighteen (the statements read
 * a few rows per day each, so the round trips' own cost was a tenth of the request's CPU). From the raw tables before:
 * each period and the NGR in a transaction of its own, side by side (seconds each on a large history).
 */
export const businessHandler = analytics.handler({ input: { query: BusinessQuery } }, async ({ deps, ctx, input: { query } }) => {
  const range = rangeOf(query.range, lastDays(30, new Date()));
  const scope = await scopeOf(deps, ctx, query.currency);
  const previous = previousRange(range);
  if (previous.start < '0001-01-01')
    throw new AppError(400, 'INVALID_PARAM', 'Invalid parameter: range: the previous period would start before 0001-01-01', {
      details: [{ field: 'range', message: 'the previous period would start before 0001-01-01' }],
    });
  const ranges = [range, previous];
  const kept = await readFigures(deps, async (db) => {
    const refreshedAt = await lastAnalyticsRefresh(db);
    if (!refreshedAt) return null;
    const [current, before] = await viewBusinessPeriods(db, scope, ranges);
    return { refreshedAt, current: current!, previous: before!, ngr: await ngrFigures({ db }, scope, ranges, viewNgrParts) };
  });
  const answer = kept ?? { refreshedAt: null, ...(await rawPeriods(deps, scope, ranges)) };
  ctx.body = {
    success: true,
    data: {
      currency: scope.currency,
      range,
      previous_range: previous,
      refreshed_at: answer.refreshedAt?.toISOString() ?? null,
      current: answer.current,
      previous: answer.previous,
      ngr: { definition_version: answer.ngr.version, current: answer.ngr.figures[0], previous: answer.ngr.figures[1] },
    },
  };
});

async function rawPeriods(deps: AppDeps, scope: AnalyticsScope, ranges: DayRange[]) {
  const [current, previous, ngr] = await Promise.all([
    readFigures(deps, (db) => businessFigures(db, scope, ranges[0]!)),
    readFigures(deps, (db) => businessFigures(db, scope, ranges[1]!)),
    readFigures(deps, (db) => ngrFigures({ db }, scope, ranges, ngrParts)),
  ]);
  return { current, previous, ngr };
}
