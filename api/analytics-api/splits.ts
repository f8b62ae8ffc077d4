import { z } from 'zod';
import { lastDays } from '../../core/analyticsParams';
import { lastAnalyticsRefresh } from '../../db/queries/analyticsRefresh';
import { SPLIT_DIMENSIONS, splitFigures } from '../../db/queries/analyticsSplits';
import { viewSplitFigures } from '../../db/queries/analyticsSplitsView';
import { registry } from '../openapi/registry';
import { rangeOf, readFigures, scopeOf } from './context';
import { KpisQuery } from './schema';
import { analytics } from './area';

export const SplitsQuery = KpisQuery.extend({
  by: z
    .enum(SPLIT_DIMENSIONS)
    .openapi({ description: "The player's country or jurisdiction (in `currency`), or currency (each its own row; `currency` is then ignored)" }),
});

const count = (description: string) => z.number().int().openapi({ description });
const money = (description: string) => z.number().openapi({ description: `${description} (minor units of the row's currency)` });
export const SplitRowSchema = registry.register(
  'SplitRow',
  z.object({
    key: z.string().openapi({ description: 'An ISO 3166 code (MT, GB-SCT) or ISO 4217 code as sent, upper-cased; `other` for none or anything else' }),
    currency: z.string(),
    active_players: count('Players with a game round or a completed deposit in the range'),
    depositing_players: count('Players with a completed deposit in the range'),
    deposits: money('Σ completed deposits'),
    withdrawals: money('Σ completed withdrawals'),
    ggr: money('Σ bet − win'),
    ftd_count: count('Players whose first completed deposit ever fell in the range'),
  }),
);
export const SplitsResponse = z.object({
  success: z.literal(true),
  data: z.object({
    by: z.enum(SPLIT_DIMENSIONS),
    range: z.object({ start: z.string(), end: z.string() }),
    refreshed_at: z.string().nullable().openapi({
      description: 'When the rollups the rows come from were last caught up (events after it are not counted yet); null when served from the raw tables',
    }),
    rows: z.array(SplitRowSchema),
  }),
});

/** `GET /splits`: the range's figures (default 30 days) by country, jurisdiction or currency; rollups once a pass has completed, raw tables before. */
export const splitsHandler = analytics.handler({ input: { query: SplitsQuery } }, async ({ deps, ctx, input: { query } }) => {
  const range = rangeOf(query.range, lastDays(30, new Date()));
  const scope = await scopeOf(deps, ctx, query.currency);
  const { refreshedAt, rows } = await readFigures(deps, async (db) => {
    const refreshedAt = await lastAnalyticsRefresh(db);
    return { refreshedAt, rows: await (refreshedAt ? viewSplitFigures : splitFigures)(db, scope, range, query.by) };
  });
  ctx.body = { success: true, data: { by: query.by, range, refreshed_at: refreshedAt?.toISOString() ?? null, rows } };
});
