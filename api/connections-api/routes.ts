import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { authenticate } from '../middleware/authenticate';
import { AUTH_FAILURE_TEXT, requireManager } from '../middleware/requireManager';
import { validate } from '../middleware/validate';
import { createConnection, getConnection, listConnectionRecords, patchConnection } from './connections';
import { createConnector, getConnector, listConnectorRecords, removeConnector } from './connectors';
import { CreateConnectionBody, CreateConnectorBody, IdParams, UpdateConnectionBody } from './schema';

const requireManagerOf = requireManager('connectors and connections');

/** Gateway management (DESIGN.md "Gateway management"): connectors (OpenAPI blueprints) and connections (encrypted credentials). */
export function createConnectionsApiRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/connections-api' });
  const auth = authenticate(deps, { accept: ['apiKey', 'session'], onFailure: (reason) => new AppError(401, 'UNAUTHORIZED', AUTH_FAILURE_TEXT[reason]) });
  const byId = validate({ params: IdParams });

  router.post('/connectors', auth, requireManagerOf, validate({ body: CreateConnectorBody }), (ctx) => createConnector(deps, ctx));
  router.get('/connectors', auth, (ctx) => listConnectorRecords(deps, ctx));
  router.get('/connectors/:id', auth, byId, (ctx) => getConnector(deps, ctx));
  router.delete('/connectors/:id', auth, requireManagerOf, byId, (ctx) => removeConnector(deps, ctx));

  router.post('/connections', auth, requireManagerOf, validate({ body: CreateConnectionBody }), (ctx) => createConnection(deps, ctx));
  router.get('/connections', auth, (ctx) => listConnectionRecords(deps, ctx));
  router.get('/connections/:id', auth, byId, (ctx) => getConnection(deps, ctx));
  router.patch('/connections/:id', auth, requireManagerOf, validate({ params: IdParams, body: UpdateConnectionBody }), (ctx) => patchConnection(deps, ctx));
  return router;
}
