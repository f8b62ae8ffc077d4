import type { Context } from 'koa';
import { changeSettings } from '../../commands/settings';
import { getSettings } from '../../db/queries/settings';
import { listTemplates } from '../../db/queries/templates';
import { actorOf } from '../actor';
import type { AppDeps } from '../deps';
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
  const operatorId = operatorOf(ctx);
  const settings = await changeSettings(deps, { operatorId, change: body, actor: actorOf(ctx) });
  deps.caches.settings.invalidate(operatorId);
  deps.caches.mcpTools.invalidate(operatorId);
  ctx.body = { success: true, data: settingsRecord(settings) };
}
