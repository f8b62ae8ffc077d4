import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { rateLimit } from '../middleware/rateLimit';
import { validate } from '../middleware/validate';
import { gamesHandler, providersHandler } from './catalog';
import { analyticsAuth, queryError, readOrExportLimit } from './context';
import './openapi';
import { getPlayerHandler, listPlayersHandler } from './players';
import { refreshHandler } from './refresh';
import { GamesQuery, KpisQuery, PlayerParams, PlayersQuery, ProvidersQuery, RevenueQuery } from './schema';
import { kpisHandler, revenueHandler } from './summary';

/** Analytics (spec 4.4): API key or session, every figure scoped to the caller's operator. */
export function createAnalyticsRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/analytics-api/analytics' });
  const reads = readOrExportLimit(deps);
  router.use(analyticsAuth(deps));

  router.get('/kpis', reads, validate({ query: KpisQuery }, queryError), (ctx) => kpisHandler(deps, ctx));
  router.get('/revenue', reads, validate({ query: RevenueQuery }, queryError), (ctx) => revenueHandler(deps, ctx));
  router.get('/players', reads, validate({ query: PlayersQuery }, queryError), (ctx) => listPlayersHandler(deps, ctx));
  router.get('/players/:id', reads, validate({ params: PlayerParams }, queryError), (ctx) => getPlayerHandler(deps, ctx));
  router.get('/games', reads, validate({ query: GamesQuery }, queryError), (ctx) => gamesHandler(deps, ctx));
  router.get('/providers', reads, validate({ query: ProvidersQuery }, queryError), (ctx) => providersHandler(deps, ctx));
  router.post('/refresh', rateLimit(deps.rateLimits, 'analytics:refresh'), (ctx) => refreshHandler(deps, ctx));
  return router;
}
