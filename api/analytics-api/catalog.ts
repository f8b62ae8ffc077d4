import { lastDays } from '../../core/analyticsParams';
import { rawGames, rawProviders } from '../../db/queries/analyticsRaw';
import { lastAnalyticsRefresh } from '../../db/queries/analyticsRefresh';
import { viewGames, viewProviders } from '../../db/queries/analyticsViews';
import { rangeOf, readFigures, scopeOf } from './context';
import { sendCsv, sendRows } from './respond';
import { GamesQuery, ProvidersQuery } from './schema';
import { analytics } from './area';

const GAME_COLUMNS = ['game_name', 'rounds', 'ggr', 'unique_players', 'avg_bet'];
/** With no refresh yet and no `range`, the raw path covers everything from the epoch to today (the view's all-time figures). */
const ALL_TIME = (): { start: string; end: string } => ({ start: '1970-01-01', end: lastDays(1, new Date()).end });

/**
 * `GET /games`: the all-time view once refreshed; a `range` (spec: applies only to the raw path) or no refresh yet
 * reads the raw tables.
 */
export const gamesHandler = analytics.handler({ input: { query: GamesQuery } }, async ({ deps, ctx, input: { query } }) => {
  const range = query.range === undefined ? undefined : rangeOf(query.range, ALL_TIME());
  const scope = await scopeOf(deps, ctx, query.currency);
  const page = { limit: query.limit, offset: query.offset };
  const { refreshedAt, games } = await readFigures(deps, async (db) => {
    const refreshedAt = range ? null : await lastAnalyticsRefresh(db);
    return { refreshedAt, games: refreshedAt ? await viewGames(db, scope, page) : await rawGames(db, scope, range ?? ALL_TIME(), page) };
  });
  if (query.format === 'csv') return sendCsv(ctx, 'games', GAME_COLUMNS, games as unknown as Array<Record<string, unknown>>);
  sendRows(ctx, 'games', games, { currency: scope.currency, refreshed_at: refreshedAt?.toISOString() ?? null });
});

/** `GET /providers`: all-time transaction volume per `data.provider`. */
export const providersHandler = analytics.handler({ input: { query: ProvidersQuery } }, async ({ deps, ctx, input: { query } }) => {
  const scope = await scopeOf(deps, ctx, query.currency);
  const { refreshedAt, providers } = await readFigures(deps, async (db) => {
    const refreshedAt = await lastAnalyticsRefresh(db);
    return { refreshedAt, providers: refreshedAt ? await viewProviders(db, scope) : await rawProviders(db, scope) };
  });
  ctx.body = { success: true, data: { providers, currency: scope.currency, refreshed_at: refreshedAt?.toISOString() ?? null } };
});
