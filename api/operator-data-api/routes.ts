import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { rateLimit } from '../middleware/rateLimit';
import { defaultValidationError, validate } from '../middleware/validate';
import { getBatchJobHandler, submitBatchHandler } from './batches';
import { dataApiAuth } from './context';
import { eraseEntityHandler, getEntityHandler, upsertEntityHandler } from './entities';
import { listEventsHandler, recordEventHandler } from './events';
import './openapi';
import { EntityBody, EventBody, EventsQuery, ExternalIdParams, JobParams, SettingsBody, StateParams } from './schema';
import { getSettingsHandler, listTemplatesHandler, putSettingsHandler } from './settings';
import { getStateHandler, listStatesHandler, putStateHandler } from './states';

/** Settings problems are always `VALIDATION_FAILED` naming the field (every setting is optional). */
const settingsError = (result: Parameters<typeof defaultValidationError>[0]) =>
  new AppError(400, 'VALIDATION_FAILED', `Invalid settings: ${result.problems.map((p) => `${p.field} ${p.message}`).join('; ')}`, { details: result.problems });

/** The data ingestion API (spec 4.2), API-key authenticated, every query scoped to the key's operator. */
export function createOperatorDataRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/operator-data-api' });
  const realtime = rateLimit(deps.rateLimits, 'ingest:realtime');
  const batch = rateLimit(deps.rateLimits, 'ingest:batch');
  router.use(dataApiAuth(deps));

  router.get('/templates', (ctx) => listTemplatesHandler(deps, ctx));
  router.get('/settings', (ctx) => getSettingsHandler(deps, ctx));
  router.put('/settings', validate({ body: SettingsBody }, settingsError), (ctx) => putSettingsHandler(deps, ctx));

  router.post('/entities', realtime, validate({ body: EntityBody }), (ctx) => upsertEntityHandler(deps, ctx));
  router.get('/entities/:externalId', validate({ params: ExternalIdParams }), (ctx) => getEntityHandler(deps, ctx));
  router.delete('/entities/:externalId', validate({ params: ExternalIdParams }), (ctx) => eraseEntityHandler(deps, ctx));
  router.post('/entities/:externalId/events', realtime, validate({ params: ExternalIdParams, body: EventBody }), (ctx) => recordEventHandler(deps, ctx));
  router.get('/entities/:externalId/events', validate({ params: ExternalIdParams, query: EventsQuery }), (ctx) => listEventsHandler(deps, ctx));
  router.put('/entities/:externalId/state/:key', realtime, validate({ params: StateParams }), (ctx) => putStateHandler(deps, ctx));
  router.get('/entities/:externalId/state', validate({ params: ExternalIdParams }), (ctx) => listStatesHandler(deps, ctx));
  router.get('/entities/:externalId/state/:key', validate({ params: StateParams }), (ctx) => getStateHandler(deps, ctx));

  router.post('/batch/entities', batch, (ctx) => submitBatchHandler(deps, ctx, 'entities'));
  router.post('/batch/events', batch, (ctx) => submitBatchHandler(deps, ctx, 'events'));
  router.post('/batch/states', batch, (ctx) => submitBatchHandler(deps, ctx, 'states'));
  router.get('/batch/jobs/:jobId', validate({ params: JobParams }), (ctx) => getBatchJobHandler(deps, ctx));
  return router;
}
