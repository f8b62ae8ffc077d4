import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AppDeps } from '../deps';
import { AppError, type AuthFailure } from '../errors';
import { authenticate, principalOf } from '../middleware/authenticate';
import { createKey, listKeys, renameKey, revokeOrDeleteKey, updateMcpSettings } from './handlers';

const AUTH_TEXT: Record<AuthFailure, string> = {
  missing: 'Authorization header is required',
  invalid_format: 'Invalid credentials',
  invalid: 'Invalid credentials',
  revoked: 'Credentials have been revoked',
  session_required: 'A session token is required',
  api_key_required: 'An API key is required',
};

/** Session callers must be the Owner or an Admin to change keys; an API key acts for its organisation. */
const requireKeyManager: Middleware = async (ctx, next) => {
  const principal = principalOf(ctx);
  if (principal.kind === 'session' && principal.role === 'member') {
    throw new AppError(403, 'FORBIDDEN', 'Only the Owner or an Admin can manage API keys');
  }
  await next();
};

/** Key management (spec 4.1, 7.1): keys belong to the organisation; errors are `{ success: false, error: "<text>" }`. */
export function createApiKeysRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/api-keys' });
  const auth = authenticate(deps, {
    accept: ['apiKey', 'session'],
    onFailure: (reason) => new AppError(401, 'UNAUTHORIZED', AUTH_TEXT[reason]),
  });

  router.post('/', auth, requireKeyManager, (ctx) => createKey(deps, ctx));
  router.get('/', auth, (ctx) => listKeys(deps, ctx));
  router.patch('/', auth, requireKeyManager, (ctx) => renameKey(deps, ctx));
  router.delete('/', auth, requireKeyManager, (ctx) => revokeOrDeleteKey(deps, ctx));
  router.patch('/:id/mcp', auth, requireKeyManager, (ctx) => updateMcpSettings(deps, ctx));
  return router;
}
