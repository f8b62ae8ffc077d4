import type { Context } from 'koa';
import { getSettings, updateSettings, type OperatorSettings } from '../../db/queries/settings';
import { findTemplate, listTemplates } from '../../db/queries/templates';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { inputOf } from '../middleware/validate';
import { operatorOf } from './context';
import { SettingsBody } from './schema';

function settingsView(settings: OperatorSettings) {
  return {
    template: settings.template,
    dataRetentionDays: settings.dataRetentionDays,
    retentionPolicy: settings.retentionPolicy,
    reportingCurrency: settings.reportingCurrency,
  };
}

export async function listTemplatesHandler(deps: AppDeps, ctx: Context): Promise<void> {
  const templates = await listTemplates(deps.db);
  ctx.body = { success: true, data: templates.map((t) => ({ id: t.id, name: t.name, version: t.version, schema: t.schema, created_at: t.created_at.toISOString() })) };
}

export async function getSettingsHandler(deps: AppDeps, ctx: Context): Promise<void> {
  ctx.body = { success: true, data: settingsView(await getSettings(deps.db, operatorOf(ctx))) };
}

export async function putSettingsHandler(deps: AppDeps, ctx: Context): Promise<void> {
  const { body } = inputOf(ctx, { body: SettingsBody });
  if (body.templateId !== undefined && !(await findTemplate(deps.db, body.templateId))) {
    throw new AppError(400, 'VALIDATION_FAILED', `templateId: no template ${body.templateId}`, { details: [{ field: 'templateId', message: 'must name a template of GET /templates' }] });
  }
  const operatorId = operatorOf(ctx);
  await updateSettings(deps.db, operatorId, body);
  deps.caches.settings.invalidate(operatorId);
  ctx.body = { success: true, data: settingsView(await getSettings(deps.db, operatorId)) };
}
