import { defaultRevenueRange, lastDays, type Period } from '../../core/analyticsParams';
import { lastAnalyticsRefresh } from '../../db/queries/analyticsRefresh';
import { rawKpis, rawRevenue } from '../../db/queries/analyticsRaw';
import type { Unit } from '../../db/queries/analyticsTypes';
import { viewKpis, viewRevenue } from '../../db/queries/analyticsViews';
import { activeWindow, rangeOf, readFigures, scopeOf } from './context';
import { sendCsv, sendRows } from './respond';
import { KpisQuery, RevenueQuery } from './schema';
import { analytics } from './area';

const UNIT: Record<Period, Unit> = { daily: 'day', weekly: 'week', monthly: 'month' };
const REVENUE_COLUMNS = ['date', 'total_ggr', 'total_deposits', 'depositing_players', 'active_players'];

/** `GET /kpis`: money over `range` (default 30 days); views once refreshed, raw tables before. */
export const kpisHandler = analytics.handler({ input: { query: KpisQuery } }, async ({ deps, ctx, input: { query } }) => {
  const range = rangeOf(query.range, lastDays(30, new Date()));
  const scope = await scopeOf(deps, ctx, query.currency);
  const { refreshedAt, kpis } = await readFigures(deps, async (db) => {
    const refreshedAt = await lastAnalyticsRefresh(db);
    return { refreshedAt, kpis: refreshedAt ? await viewKpis(db, scope, range, activeWindow()) : await rawKpis(db, scope, range, activeWindow()) };
  });
  ctx.body = { success: true, data: { kpis, currency: scope.currency, range, refreshed_at: refreshedAt?.toISOString() ?? null } };
});

/** `GET /revenue`: one row per bucket of the range, empty buckets included; `format=csv` exports. */
export const revenueHandler = analytics.handler({ input: { query: RevenueQuery } }, async ({ deps, ctx, input: { query } }) => {
  const range = rangeOf(query.range, defaultRevenueRange(query.period, new Date()));
  const scope = await scopeOf(deps, ctx, query.currency);
  const { refreshedAt, rows } = await readFigures(deps, async (db) => {
    const refreshedAt = await lastAnalyticsRefresh(db);
    return {
      refreshedAt,
      rows: refreshedAt ? await viewRevenue(db, scope, range, UNIT[query.period]) : await rawRevenue(db, scope, range, UNIT[query.period]),
    };
  });
  if (query.format === 'csv') return sendCsv(ctx, `revenue-${query.period}`, REVENUE_COLUMNS, rows as unknown as Array<Record<string, unknown>>);
  sendRows(ctx, 'rows', rows, { period: query.period, currency: scope.currency, range, refreshed_at: refreshedAt?.toISOString() ?? null });
});
