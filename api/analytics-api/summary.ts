import type { Context } from 'koa';
import { defaultRevenueRange, lastDays, type Period } from '../../core/analyticsParams';
import { lastAnalyticsRefresh } from '../../db/queries/analyticsRefresh';
import { rawKpis, rawRevenue } from '../../db/queries/analyticsRaw';
import type { Unit } from '../../db/queries/analyticsTypes';
import { viewKpis, viewRevenue } from '../../db/queries/analyticsViews';
import type { AppDeps } from '../deps';
import type { InputOf } from '../endpoint';
import { activeWindow, rangeOf, scopeOf } from './context';
import { sendCsv, sendRows } from './respond';
import { type KpisQuery, type RevenueQuery } from './schema';

const UNIT: Record<Period, Unit> = { daily: 'day', weekly: 'week', monthly: 'month' };
const REVENUE_COLUMNS = ['date', 'total_ggr', 'total_deposits', 'depositing_players', 'active_players'];

/** `GET /kpis`: money over `range` (default 30 days); views once refreshed, raw tables before. */
export async function kpisHandler(deps: AppDeps, ctx: Context, { query }: InputOf<{ query: typeof KpisQuery }>): Promise<void> {
  const range = rangeOf(query.range, lastDays(30, new Date()));
  const scope = await scopeOf(deps, ctx, query.currency);
  const refreshedAt = await lastAnalyticsRefresh(deps.db);
  const kpis = refreshedAt ? await viewKpis(deps.db, scope, range, activeWindow()) : await rawKpis(deps.db, scope, range, activeWindow());
  ctx.body = { success: true, data: { kpis, currency: scope.currency, range, refreshed_at: refreshedAt?.toISOString() ?? null } };
}

/** `GET /revenue`: one row per bucket of the range, empty buckets included; `format=csv` exports. */
export async function revenueHandler(deps: AppDeps, ctx: Context, { query }: InputOf<{ query: typeof RevenueQuery }>): Promise<void> {
  const range = rangeOf(query.range, defaultRevenueRange(query.period, new Date()));
  const scope = await scopeOf(deps, ctx, query.currency);
  const refreshedAt = await lastAnalyticsRefresh(deps.db);
  const rows = refreshedAt ? await viewRevenue(deps.db, scope, range, UNIT[query.period]) : await rawRevenue(deps.db, scope, range, UNIT[query.period]);
  if (query.format === 'csv') return sendCsv(ctx, `revenue-${query.period}`, REVENUE_COLUMNS, rows as unknown as Array<Record<string, unknown>>);
  sendRows(ctx, 'rows', rows, { period: query.period, currency: scope.currency, range, refreshed_at: refreshedAt?.toISOString() ?? null });
}
