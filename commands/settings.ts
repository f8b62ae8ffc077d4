import { getSettings, updateSettings, type OperatorSettings, type SettingsChange } from '../db/queries/settings';
import { findTemplate } from '../db/queries/templates';
import type { CommandDeps } from './deps';
import { CommandError } from './errors';

/**
 * Changes an operator's settings (template, retention) and returns them as stored. A `templateId` must name a
 * template of `GET /templates`: 400 `VALIDATION_FAILED` naming the field otherwise. Callers caching settings drop
 * the operator's entry afterwards.
 */
export async function changeSettings(deps: Pick<CommandDeps, 'db'>, input: { operatorId: string; change: SettingsChange }): Promise<OperatorSettings> {
  const { templateId } = input.change;
  if (templateId !== undefined && !(await findTemplate(deps.db, templateId))) {
    throw new CommandError(400, 'VALIDATION_FAILED', `templateId: no template ${templateId}`, [
      { field: 'templateId', message: 'must name a template of GET /templates' },
    ]);
  }
  await updateSettings(deps.db, input.operatorId, input.change);
  return getSettings(deps.db, input.operatorId);
}
