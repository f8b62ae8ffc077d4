import { defineArea } from '../endpoint';
import { rateLimit } from '../middleware/rateLimit';
import { principalOf } from '../middleware/authenticate';
import { bearerApiKey, bearerDashboardCredential } from '../openapi/registry';
import { dataApiAuth } from './context';

/**
 * The data ingestion API (spec 4.2), API-key (or dashboard credential) authenticated, every query scoped to the
 * caller's operator. Declared apart from its endpoints so each handler file binds its handlers to it.
 */
export const data = defineArea({
  prefix: '/operator-data-api',
  security: [{ [bearerApiKey.name]: [] }, { [bearerDashboardCredential.name]: [] }],
  use: (deps) => [dataApiAuth(deps)],
  guards: (deps) => ({ realtime: rateLimit(deps.rateLimits, 'ingest:realtime'), batch: rateLimit(deps.rateLimits, 'ingest:batch') }),
  principal: principalOf,
});
