import type { Actor } from '../../core/audit';
import { complianceSettingsOf, type ComplianceSettings, type ComplianceSettingsInput } from '../../core/compliance/settings';
import { findComplianceSettings, saveComplianceSettings } from '../../db/queries/compliance';
import { recordAudit } from '../audit';
import type { CommandDeps } from '../deps';
import { CommandError } from '../errors';

/** The refusal anyone (Owner, Admin or API key) gets for sending `rules.exclusion: false`: the rule has no off switch. */
export const EXCLUSION_LOCKED = 'The exclusion rule (self-exclusion, cooling-off, excluded players) cannot be switched off';

/** An operator's responsible-gambling settings, the defaults where it saved none. */
export async function getComplianceSettings(deps: Pick<CommandDeps, 'db'>, operatorId: string): Promise<ComplianceSettings> {
  return complianceSettingsOf(await findComplianceSettings(deps.db, operatorId));
}

/**
 * Replaces the settings (fields left out take their defaults) and answers them as stored, with the audit event
 * (`settings.updated` on the operator's settings, the field `responsibleGambling`) in the same transaction. A request
 * that tries to switch the exclusion rule off is refused as `FORBIDDEN` whatever the caller's role, and changes nothing.
 */
export async function updateComplianceSettings(
  deps: Pick<CommandDeps, 'db'>,
  input: { operatorId: string; settings: ComplianceSettingsInput; actor: Actor },
): Promise<ComplianceSettings> {
  if (input.settings.rules?.exclusion === false) throw new CommandError('FORBIDDEN', EXCLUSION_LOCKED, [{ field: 'rules.exclusion', message: 'must be true' }]);
  const settings = complianceSettingsOf(input.settings);
  return deps.db.transaction(async (trx) => {
    await trx.raw("SELECT pg_advisory_xact_lock(hashtext('compliance-settings:' || ?))", [input.operatorId]);
    const before = complianceSettingsOf(await findComplianceSettings(trx, input.operatorId));
    await saveComplianceSettings(trx, input.operatorId, settings);
    await recordAudit(trx, {
      operatorId: input.operatorId,
      actor: input.actor,
      action: 'settings.updated',
      target: { type: 'settings', id: input.operatorId },
      before: { responsibleGambling: before },
      after: { responsibleGambling: settings },
    });
    return settings;
  });
}
