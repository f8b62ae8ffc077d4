import { defineArea } from '../endpoint';
import { AppError } from '../errors';
import { authenticate, principalOf } from '../middleware/authenticate';
import { AUTH_FAILURE_TEXT, requireManager } from '../middleware/requireManager';
import { bearerApiKey, bearerSession } from '../openapi/registry';

const requireKeyManager = requireManager('API keys');

/**
 * Key management (spec 4.1, 7.1): keys belong to the organisation; errors are `{ success: false, error: "<text>" }`.
 * The spec fixes a text error per operation, not per field: each endpoint declares its `inputError`, or reads its body raw.
 */
export const apiKeys = defineArea({
  prefix: '/api-keys',
  errorFormat: 'text',
  security: [{ [bearerApiKey.name]: [] }, { [bearerSession.name]: [] }],
  guards: (deps) => ({
    auth: authenticate(deps, { accept: ['apiKey', 'session'], onFailure: (reason) => new AppError(401, 'UNAUTHORIZED', AUTH_FAILURE_TEXT[reason]) }),
    manager: requireKeyManager,
  }),
  principal: principalOf,
});
