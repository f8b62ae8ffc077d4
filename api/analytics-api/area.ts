import { principalOf } from '../middleware/authenticate';
import { defineArea } from '../endpoint';
import { rateLimit } from '../middleware/rateLimit';
import { requireManager } from '../middleware/requireManager';
import { bearerApiKey, bearerSession } from '../openapi/registry';
import { analyticsAuth, queryError, readOrExportLimit } from './context';

/** Analytics (spec 4.4): API key or session, every figure scoped to the caller's operator. */
export const analytics = defineArea({
  prefix: '/analytics-api/analytics',
  security: [{ [bearerApiKey.name]: [] }, { [bearerSession.name]: [] }],
  use: (deps) => [analyticsAuth(deps)],
  guards: (deps) => ({
    reads: readOrExportLimit(deps),
    refresh: rateLimit(deps.rateLimits, 'analytics:refresh'),
    manager: requireManager('the NGR definition'),
    audiences: requireManager('audiences'),
    exports: rateLimit(deps.rateLimits, 'analytics:export'),
  }),
  inputError: queryError,
  principal: principalOf,
});
