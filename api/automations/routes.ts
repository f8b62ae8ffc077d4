import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { authenticate } from '../middleware/authenticate';
import { AUTH_FAILURE_TEXT, requireManager } from '../middleware/requireManager';
import { validate } from '../middleware/validate';
import { createAutomationHandler, deleteAutomationHandler, getAutomationHandler, listAutomationsHandler, updateAutomationHandler } from './definitions';
import './openapi';
import { getRunHandler, listRunsHandler, testAutomationHandler, usageHandler } from './runs';
import { ListRunsQuery, ListAutomationsQuery, RunIdParams, AutomationIdParams } from './schema';

/**
 * Workflow management (DESIGN.md "Workflows"): API key or session; anyone of the operator reads, writes
 * and test runs need an API key or the Owner or an Admin.
 */
export function createAutomationsRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/workflows-api' });
  const auth = authenticate(deps, { accept: ['apiKey', 'session'], onFailure: (reason) => new AppError(401, 'UNAUTHORIZED', AUTH_FAILURE_TEXT[reason]) });
  const manager = requireManager('workflows');
  const byId = validate({ params: AutomationIdParams });
  router.use(auth);

  router.post('/workflows', manager, (ctx) => createAutomationHandler(deps, ctx));
  router.get('/workflows', validate({ query: ListAutomationsQuery }), (ctx) => listAutomationsHandler(deps, ctx));
  router.get('/workflows/:id', byId, (ctx) => getAutomationHandler(deps, ctx));
  router.put('/workflows/:id', manager, byId, (ctx) => updateAutomationHandler(deps, ctx));
  router.delete('/workflows/:id', manager, byId, (ctx) => deleteAutomationHandler(deps, ctx));
  router.post('/workflows/:id/test', manager, byId, (ctx) => testAutomationHandler(deps, ctx));
  router.get('/workflows/:id/runs', validate({ params: AutomationIdParams, query: ListRunsQuery }), (ctx) => listRunsHandler(deps, ctx));
  router.get('/runs/:runId', validate({ params: RunIdParams }), (ctx) => getRunHandler(deps, ctx));
  router.get('/usage', (ctx) => usageHandler(deps, ctx));
  return router;
}
