import { findEntity, type EntityRow } from '../../db/queries/entities';
import type { AppDeps } from '../deps';
import { AppError, type AuthFailure } from '../errors';
import { authenticate, DASHBOARD_FAILURE_TEXT } from '../middleware/authenticate';

/**
 * The data API authenticates with API keys and, for the signed-in dashboard, the session's dashboard credential
 * (never the session's access token); any failure is 401 `UNAUTHORIZED`.
 */
export function dataApiAuth(deps: AppDeps) {
  return authenticate(deps, {
    accept: ['apiKey', 'dashboardCredential'],
    onFailure: (reason, credential) => new AppError(401, 'UNAUTHORIZED', credential ? DASHBOARD_FAILURE_TEXT[reason] : apiKeyFailureText(reason)),
  });
}

const apiKeyFailureText = (reason: AuthFailure) =>
  reason === 'missing' ? 'Missing API key' : reason === 'revoked' ? 'API key has been revoked' : 'Invalid API key';

export async function requireEntity(deps: AppDeps, operatorId: string, externalId: string): Promise<EntityRow> {
  const entity = await findEntity(deps.db, operatorId, externalId);
  if (!entity) throw new AppError(404, 'ENTITY_NOT_FOUND', `No entity with externalId ${externalId}`);
  return entity;
}
