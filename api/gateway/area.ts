import { defineArea } from '../endpoint';
import { AppError, type AuthFailure } from '../errors';
import { authenticate, DASHBOARD_FAILURE_TEXT, principalOf } from '../middleware/authenticate';
import { rateLimit } from '../middleware/rateLimit';
import { bearerApiKey, bearerDashboardCredential } from '../openapi/registry';

/**
 * Spec 5 rule 3: the gateway speaks AUTH_MISSING / AUTH_INVALID / AUTH_REVOKED; a session token is not a key. The
 * dashboard's credential fails with the same codes, in its own words.
 */
function gatewayAuthError(reason: AuthFailure, credential?: 'dashboardCredential'): AppError {
  if (reason === 'missing') return new AppError(401, 'AUTH_MISSING', 'Authorization header is required');
  if (reason === 'revoked') return new AppError(401, 'AUTH_REVOKED', credential ? DASHBOARD_FAILURE_TEXT.revoked : 'API key has been revoked');
  return new AppError(401, 'AUTH_INVALID', credential ? DASHBOARD_FAILURE_TEXT.invalid : 'Invalid API key');
}

/**
 * `POST /gateway` (spec 4.3): an API key or the dashboard credential, rate class `gateway:execute`; other methods are
 * 405 from the root router.
 */
export const gateway = defineArea({
  prefix: '/gateway',
  security: [{ [bearerApiKey.name]: [] }, { [bearerDashboardCredential.name]: [] }],
  guards: (deps) => ({
    auth: authenticate(deps, { accept: ['apiKey', 'dashboardCredential'], onFailure: gatewayAuthError }),
    limit: rateLimit(deps.rateLimits, 'gateway:execute'),
  }),
  principal: principalOf,
});
