import type { TemplateSchema } from '../../core/templates';
import { findEntity, type EntityRow } from '../../db/queries/entities';
import { getSettings, type OperatorSettings } from '../../db/queries/settings';
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

/** The operator's settings, or 400 `TEMPLATE_NOT_CONFIGURED` when no template is selected yet. */
export async function requireTemplate(deps: AppDeps, operatorId: string): Promise<OperatorSettings & { templateSchema: TemplateSchema }> {
  const settings = (await deps.caches.settings.get(operatorId, () => getSettings(deps.db, operatorId)))!;
  if (!settings.templateSchema) throw new AppError(400, 'TEMPLATE_NOT_CONFIGURED', 'No template configured; set it with PUT /settings');
  return settings as OperatorSettings & { templateSchema: TemplateSchema };
}

export async function requireEntity(deps: AppDeps, operatorId: string, externalId: string): Promise<EntityRow> {
  const entity = await findEntity(deps.db, operatorId, externalId);
  if (!entity) throw new AppError(404, 'ENTITY_NOT_FOUND', `No entity with externalId ${externalId}`);
  return entity;
}
