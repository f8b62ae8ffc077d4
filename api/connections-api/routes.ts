import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AppDeps } from '../deps';
import { AppError, type AuthFailure } from '../errors';
import { authenticate, principalOf } from '../middleware/authenticate';
import { validate } from '../middleware/validate';
import { createConnection, getConnection, listConnectionRecords, patchConnection } from './connections';
import { createConnector, getConnector, listConnectorRecords, removeConnector } from './connectors';
import { CreateConnectionBody, CreateConnectorBody, IdParams, UpdateConnectionBody } from './schema';

const AUTH_TEXT: Record<AuthFailure, string> = {
  missing: 'Authorization header is required',
  invalid_format: 'Invalid credentials',
  invalid: 'Invalid credentials',
  revoked: 'Credentials have been revoked',
  session_required: 'A session token is required',
  api_key_required: 'An API key is required',
};

/** Writes need an API key (it acts for its organisation) or the Owner or an Admin; any member may read. */
const requireManager: Middleware = async (ctx, next) => {
  const principal = principalOf(ctx);
  if (principal.kind === 'session' && principal.role === 'member') {
    throw new AppError(403, 'FORBIDDEN', 'Only the Owner or an Admin can manage connectors and connections');
  }
  await next();
};

/** Gateway management (DESIGN.md "Gateway management"): connectors (OpenAPI blueprints) and connections (encrypted credentials). */
export function createConnectionsApiRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/connections-api' });
  const auth = authenticate(deps, { accept: ['apiKey', 'session'], onFailure: (reason) => new AppError(401, 'UNAUTHORIZED', AUTH_TEXT[reason]) });
  const byId = validate({ params: IdParams });

  router.post('/connectors', auth, requireManager, validate({ body: CreateConnectorBody }), (ctx) => createConnector(deps, ctx));
  router.get('/connectors', auth, (ctx) => listConnectorRecords(deps, ctx));
  router.get('/connectors/:id', auth, byId, (ctx) => getConnector(deps, ctx));
  router.delete('/connectors/:id', auth, requireManager, byId, (ctx) => removeConnector(deps, ctx));

  router.post('/connections', auth, requireManager, validate({ body: CreateConnectionBody }), (ctx) => createConnection(deps, ctx));
  router.get('/connections', auth, (ctx) => listConnectionRecords(deps, ctx));
  router.get('/connections/:id', auth, byId, (ctx) => getConnection(deps, ctx));
  router.patch('/connections/:id', auth, requireManager, validate({ params: IdParams, body: UpdateConnectionBody }), (ctx) => patchConnection(deps, ctx));
  return router;
}
