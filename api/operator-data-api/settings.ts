import type { Context } from 'koa';
import { getSettings, updateSettings } from '../../db/queries/settings';
import { findTemplate, listTemplates } from '../../db/queries/templates';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { operatorOf } from '../middleware/authenticate';
import type { InputOf } from '../endpoint';
import { settingsRecord, templateRecord } from './presenters';
import { type SettingsBody } from './schema';

export async function listTemplatesHandler(deps: AppDeps, ctx: Context): Promise<void> {
  const templates = await listTemplates(deps.db);
  ctx.body = { success: true, data: templates.map(templateRecord) };
}

export async function getSettingsHandler(deps: AppDeps, ctx: Context): Promise<void> {
  ctx.body = { success: true, data: settingsRecord(await getSettings(deps.db, operatorOf(ctx))) };
}

export async function putSettingsHandler(deps: AppDeps, ctx: Context, { body }: InputOf<{ body: typeof SettingsBody }>): Promise<void> {
  if (body.templateId !== undefined && !(await findTemplate(deps.db, body.templateId))) {
    throw new AppError(400, 'VALIDATION_FAILED', `templateId: no template ${body.templateId}`, {
      details: [{ field: 'templateId', message: 'must name a template of GET /templates' }],
    });
  }
  const operatorId = operatorOf(ctx);
  await updateSettings(deps.db, operatorId, body);
  deps.caches.settings.invalidate(operatorId);
  ctx.body = { success: true, data: settingsRecord(await getSettings(deps.db, operatorId)) };
}
