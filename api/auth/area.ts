import { defineArea } from '../endpoint';
import { rateLimit } from '../middleware/rateLimit';

/**
 * Identity: signup creates an organisation and its Owner; token issues sessions; user and logout are
 * what supabase-js `getUser` and `signOut` call (OAuth-style errors except on signup). User and logout
 * check the session themselves, so that every failure is RFC 6750's `invalid_token`.
 */
export const auth = defineArea({
  prefix: '/auth/v1',
  guards: (deps) => ({ limitByAddress: rateLimit(deps.rateLimits, 'auth', (ctx) => ctx.ip) }),
});
