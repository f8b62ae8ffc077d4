import { api, call, json } from '../../../api/client';
import type { QueryOf } from '../../../api/types';
import { useLoad } from '../../../api/useLoad';

type Range = QueryOf<'/analytics-api/analytics/kpis', 'get'>['range'];

/** `version` changes after a refresh of the views, so every panel loads again. */
export const useKpis = (range: Range, version: number) =>
  useLoad(() => call(api.GET('/analytics-api/analytics/kpis', { params: { query: { range } } })), [range, version]);

export const useBusiness = (range: QueryOf<'/analytics-api/analytics/business', 'get'>['range'], version: number) =>
  useLoad(() => call(api.GET('/analytics-api/analytics/business', { params: { query: { range } } })), [range, version]);

export const useRevenue = (query: QueryOf<'/analytics-api/analytics/revenue', 'get'>, version: number) =>
  useLoad(async () => json(await call(api.GET('/analytics-api/analytics/revenue', { params: { query } }))), [JSON.stringify(query), version]);

export const useTopGames = (version: number) =>
  useLoad(async () => json(await call(api.GET('/analytics-api/analytics/games', { params: { query: { limit: '10' } } }))), [version]);

export const useProviders = (version: number) => useLoad(() => call(api.GET('/analytics-api/analytics/providers')), [version]);

/** Refreshes the analytics views now rather than at their next scheduled refresh. */
export const refreshAnalytics = () => call(api.POST('/analytics-api/analytics/refresh'));

export const useCohorts = (version: number) =>
  useLoad(() => call(api.GET('/analytics-api/analytics/cohorts', { params: { query: { grain: 'month' } } })), [version]);

export const useGameHealth = (range: string, version: number) =>
  useLoad(() => call(api.GET('/analytics-api/analytics/game-health', { params: { query: { range, limit: '10' } } })), [range, version]);

export const useSplits = (range: string, version: number) =>
  useLoad(() => call(api.GET('/analytics-api/analytics/splits', { params: { query: { range, by: 'country' } } })), [range, version]);

export const useSaferGambling = (range: string, version: number) =>
  useLoad(() => call(api.GET('/analytics-api/analytics/safer-gambling', { params: { query: { range } } })), [range, version]);
