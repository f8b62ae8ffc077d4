import { z } from 'zod';
import { lastDays } from '../../core/analyticsParams';
import { gameHealth } from '../../db/queries/analyticsGameHealth';
import { viewGameHealth } from '../../db/queries/analyticsGameHealthView';
import { lastAnalyticsRefresh } from '../../db/queries/analyticsRefresh';
import { registry } from '../openapi/registry';
import { rangeOf, readFigures, scopeOf } from './context';
import { GamesQuery } from './schema';
import { analytics } from './area';

export const GameHealthQuery = GamesQuery.omit({ format: true }).extend({
  by: z
    .enum(['game', 'provider'])
    .default('game')
    .openapi({ description: 'One row per game (game_name, else game_id) or per the round’s provider; default game' }),
  range: z.string().min(1).max(50).optional().openapi({ description: '7d, 14d, 30d, 90d or <start>:<end> ISO dates (UTC days, inclusive); default 30d' }),
});

const money = (description: string) => z.number().openapi({ description: `${description} (minor units)` });
const share = (description: string) =>
  z
    .number()
    .nullable()
    .openapi({ description: `${description}, 4 decimals; null without turnover` });
const healthShape = {
  rounds: z.number().int(),
  players: z.number().int().openapi({ description: 'Distinct players with a round' }),
  turnover: money('Σ bet_amount, cash and bonus stakes'),
  wins: money('Σ win_amount'),
  ggr: money('turnover − wins'),
  rtp: share('Actual RTP: wins ÷ turnover'),
  hold: share('Hold (margin): ggr ÷ turnover'),
  cash_ggr: money('GGR on cash stakes: (bet − bonus_bet_amount) − (win − bonus_win_amount)'),
  bonus_ggr: money('GGR on bonus stakes: bonus_bet_amount − bonus_win_amount'),
};
export const GameHealthSchema = registry.register('GameHealth', z.object(healthShape));
export const GameHealthRowSchema = registry.register(
  'GameHealthRow',
  z.object({ name: z.string().nullable().openapi({ description: 'The game or provider; null: rounds that name no provider' }), ...healthShape }),
);

export const GameHealthResponse = z.object({
  success: z.literal(true),
  data: z.object({
    currency: z.string(),
    range: z.object({ start: z.string(), end: z.string() }),
    by: z.enum(['game', 'provider']),
    refreshed_at: z.string().nullable().openapi({
      description: 'When the rollups the figures come from were last caught up (events after it are not counted yet); null when served from the raw tables',
    }),
    totals: GameHealthSchema.openapi({ description: 'Every round of the range in the currency, named or not' }),
    rows: z.array(GameHealthRowSchema),
    total_rows: z.number().int(),
    has_more: z.boolean(),
  }),
});

/**
 * `GET /game-health`: actual RTP, hold and cash vs bonus GGR per game or provider over `range` (default 30 days);
 * rollups once a pass has completed, raw tables before.
 */
export const gameHealthHandler = analytics.handler({ input: { query: GameHealthQuery } }, async ({ deps, ctx, input: { query } }) => {
  const range = rangeOf(query.range, lastDays(30, new Date()));
  const scope = await scopeOf(deps, ctx, query.currency);
  const { refreshedAt, health } = await readFigures(deps, async (db) => {
    const refreshedAt = await lastAnalyticsRefresh(db);
    const page = { limit: query.limit, offset: query.offset };
    return { refreshedAt, health: await (refreshedAt ? viewGameHealth : gameHealth)(db, scope, range, query.by, page) };
  });
  const has_more = query.offset + health.rows.length < health.total_rows;
  ctx.body = { success: true, data: { currency: scope.currency, range, by: query.by, refreshed_at: refreshedAt?.toISOString() ?? null, ...health, has_more } };
});
