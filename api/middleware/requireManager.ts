import type { Middleware } from 'koa';
import { AppError, type AuthFailure } from '../errors';
import { principalOf } from './authenticate';

/** 401 texts of the areas that accept an API key or a session and answer in plain words. */
export const AUTH_FAILURE_TEXT: Record<AuthFailure, string> = {
  missing: 'Authorization header is required',
  invalid_format: 'Invalid credentials',
  invalid: 'Invalid credentials',
  revoked: 'Credentials have been revoked',
  session_required: 'A session token is required',
  api_key_required: 'An API key is required',
};

/**
 * Lets through an API key (it acts for its organisation) or the session of the Owner or an Admin; a
 * Member is 403 `FORBIDDEN`.
 *
 * @example router.post('/', auth, requireManager('API keys'), createKey)
 */
export function requireManager(what: string): Middleware {
  return async (ctx, next) => {
    const principal = principalOf(ctx);
    if (principal.kind === 'session' && principal.role === 'member') {
      throw new AppError(403, 'FORBIDDEN', `Only the Owner or an Admin can manage ${what}`);
    }
    await next();
  };
}
