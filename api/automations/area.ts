import { defineArea } from '../endpoint';
import { AppError } from '../errors';
import { authenticate, principalOf } from '../middleware/authenticate';
import { rateLimit } from '../middleware/rateLimit';
import { AUTH_FAILURE_TEXT, requireManager } from '../middleware/requireManager';
import { bearerApiKey, bearerSession } from '../openapi/registry';

/**
 * Workflow management (DESIGN.md "Workflows"), served at `/workflows-api`: API key or session; anyone of the
 * operator reads, writes and test runs need an API key or the Owner or an Admin. Definitions are validated by
 * the handlers (core/automations/definition.ts names every problem), so the body is documented, not validated here.
 */
export const automations = defineArea({
  prefix: '/workflows-api',
  security: [{ [bearerApiKey.name]: [] }, { [bearerSession.name]: [] }],
  use: (deps) => [authenticate(deps, { accept: ['apiKey', 'session'], onFailure: (reason) => new AppError(401, 'UNAUTHORIZED', AUTH_FAILURE_TEXT[reason]) })],
  guards: (deps) => ({
    manager: requireManager('workflows'),
    runs: rateLimit(deps.rateLimits, 'runs:start'),
    preview: rateLimit(deps.rateLimits, 'expressions:preview'),
  }),
  principal: principalOf,
});
