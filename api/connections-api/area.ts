import { defineArea } from '../endpoint';
import { AppError } from '../errors';
import { authenticate, principalOf } from '../middleware/authenticate';
import { AUTH_FAILURE_TEXT, requireManager } from '../middleware/requireManager';
import { bearerApiKey, bearerSession } from '../openapi/registry';

/** Gateway management (DESIGN.md "Gateway management"): connectors (OpenAPI blueprints) and connections (encrypted credentials). */
export const connections = defineArea({
  prefix: '/connections-api',
  security: [{ [bearerApiKey.name]: [] }, { [bearerSession.name]: [] }],
  guards: (deps) => ({
    auth: authenticate(deps, { accept: ['apiKey', 'session'], onFailure: (reason) => new AppError(401, 'UNAUTHORIZED', AUTH_FAILURE_TEXT[reason]) }),
    manager: requireManager('connectors and connections'),
  }),
  principal: principalOf,
});
