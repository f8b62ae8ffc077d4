import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { authenticate } from '../middleware/authenticate';
import { AUTH_FAILURE_TEXT, requireManager } from '../middleware/requireManager';
import { createKey, listKeys, renameKey, revokeOrDeleteKey, updateMcpSettings } from './handlers';

const requireKeyManager = requireManager('API keys');

/** Key management (spec 4.1, 7.1): keys belong to the organisation; errors are `{ success: false, error: "<text>" }`. */
export function createApiKeysRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/api-keys' });
  const auth = authenticate(deps, {
    accept: ['apiKey', 'session'],
    onFailure: (reason) => new AppError(401, 'UNAUTHORIZED', AUTH_FAILURE_TEXT[reason]),
  });

  router.post('/', auth, requireKeyManager, (ctx) => createKey(deps, ctx));
  router.get('/', auth, (ctx) => listKeys(deps, ctx));
  router.patch('/', auth, requireKeyManager, (ctx) => renameKey(deps, ctx));
  router.delete('/', auth, requireKeyManager, (ctx) => revokeOrDeleteKey(deps, ctx));
  router.patch('/:id/mcp', auth, requireKeyManager, (ctx) => updateMcpSettings(deps, ctx));
  return router;
}
