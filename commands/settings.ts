import type { Actor } from '../core/audit';
import { updateSettings, type OperatorSettings, type SettingsChange } from '../db/queries/settings';
import { storedSettings } from '../db/settingsPort';
import { findTemplate } from '../db/queries/templates';
import { recordAudit } from './audit';
import type { CommandDeps } from './deps';
import { CommandError } from './errors';

/**
 * Changes an operator's settings (template, retention) and returns them as stored. A `templateId` must name a
 * template of `GET /templates`, refused otherwise as `VALIDATION_FAILED` naming the field. The settings port hears of
 * the change once it commits (`deps.settings.changed`), so a cache behind it answers it at once. The audit event (target `settings`, the operator's id) is written with the change.
 */
export async function changeSettings(
  deps: Pick<CommandDeps, 'db' | 'settings'>,
  input: { operatorId: string; change: SettingsChange; actor: Actor },
): Promise<OperatorSettings> {
  const { templateId } = input.change;
  if (templateId !== undefined && !(await findTemplate(deps.db, templateId))) {
    throw new CommandError('VALIDATION_FAILED', `templateId: no template ${templateId}`, [
      { field: 'templateId', message: 'must name a template of GET /templates' },
    ]);
  }
  const saved = await deps.db.transaction(async (trx) => {
    const stored = storedSettings(trx);
    await trx.raw("SELECT pg_advisory_xact_lock(hashtext('operator-settings:' || ?))", [input.operatorId]);
    const before = await stored.of(input.operatorId);
    await updateSettings(trx, input.operatorId, input.change);
    const after = await stored.of(input.operatorId);
    const target = { type: 'settings' as const, id: input.operatorId };
    await recordAudit(trx, { operatorId: input.operatorId, actor: input.actor, action: 'settings.updated', target, before, after });
    return after;
  });
  deps.settings.changed(input.operatorId);
  return saved;
}
