import { changeSettings } from '../../commands/settings';
import { listTemplates } from '../../db/queries/templates';
import { storedSettings } from '../../db/settingsPort';
import { actorOf } from '../actor';
import { data } from './area';
import { settingsRecord, templateRecord } from './presenters';
import { SettingsBody } from './schema';

export const listTemplatesHandler = data.handler({}, async ({ deps, ctx }) => {
  const templates = await listTemplates(deps.db);
  ctx.body = { success: true, data: templates.map(templateRecord) };
});

export const getSettingsHandler = data.handler({}, async ({ deps, ctx, principal }) => {
  // Read from the database, not the cache: a change made through another API process shows at once, as it always did.
  ctx.body = { success: true, data: settingsRecord(await storedSettings(deps.db).of(principal.operatorId)) };
});

export const putSettingsHandler = data.handler({ input: { body: SettingsBody } }, async ({ deps, ctx, input: { body }, principal }) => {
  const { operatorId } = principal;
  const settings = await changeSettings(deps, { operatorId, change: body, actor: actorOf(principal) });
  deps.caches.mcpTools.invalidate(operatorId);
  ctx.body = { success: true, data: settingsRecord(settings) };
});
