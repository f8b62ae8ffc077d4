import { createHash } from 'node:crypto';
import { CONSENT_CHANNELS, type MarketingStep } from '../automations/nodes/marketing';
import { isRecord } from '../automations/types';
import { stableStringify } from '../stableJson';
import type { ComplianceSettings } from './settings';

/**
 * The responsible-gambling gate's rules, in the order they are checked; the first that applies suppresses the step
 * (docs/compliance.md "Responsible-gambling gate"). The three exclusion rules always apply.
 */
export const GATE_RULES = ['self_excluded', 'cooling_off', 'player_excluded', 'no_consent', 'harm_indicator', 'deposit_limit_reached', 'quiet_hours'] as const;
export type GateRule = (typeof GATE_RULES)[number];
export type GateDecision = GateRule | 'allowed';

/** What the gate read of one player at the moment the step runs. */
export interface GateFacts {
  /** The `compliance` state value (spec 2.13), null when never set. */
  compliance: unknown;
  /** The `consent` state value (`{ email: bool, … }`), null when never set. */
  consent: unknown;
  /** The player entity's `status` and `jurisdiction` fields. */
  status: string | null;
  jurisdiction: string | null;
  /** When a harm indicator last fired for the player, if ever. */
  lastHarmAt: Date | null;
  /** Completed deposits over the settings' `depositLimitHours`, minor units. */
  depositedInLimitWindow: number;
  now: Date;
}

const flag = (value: unknown, key: string): boolean => isRecord(value) && value[key] === true;

/** Whether the consent state lets this step through: its channel's flag, or every flag when the step names none. */
function consents(consent: unknown, step: MarketingStep, explicit: boolean): boolean {
  const record = isRecord(consent) ? consent : {};
  const allows = (channel: string) => (explicit ? record[channel] === true : record[channel] !== false);
  if (step.purpose === 'bonus' && record.bonus === false) return false;
  if (step.channel) return allows(step.channel);
  return explicit ? CONSENT_CHANNELS.some((channel) => record[channel] === true) : CONSENT_CHANNELS.every((channel) => record[channel] !== false);
}

function inQuietHours(settings: ComplianceSettings, jurisdiction: string | null, now: Date): boolean {
  if (!jurisdiction) return false;
  const hour = now.getUTCHours();
  return settings.quietHours.some(
    (quiet) =>
      quiet.jurisdiction.toUpperCase() === jurisdiction.toUpperCase() &&
      (quiet.from <= quiet.to ? hour >= quiet.from && hour < quiet.to : hour >= quiet.from || hour < quiet.to),
  );
}

/**
 * The rule that suppresses a marketing step for a player, or `allowed`.
 *
 * @example gateDecision({ compliance: { selfExcluded: true }, consent: null, … }, { purpose: 'marketing', channel: 'email' }, settings) // 'self_excluded'
 */
export function gateDecision(facts: GateFacts, step: MarketingStep, settings: ComplianceSettings): GateDecision {
  if (flag(facts.compliance, 'selfExcluded')) return 'self_excluded';
  if (flag(facts.compliance, 'coolingOff')) return 'cooling_off';
  if (facts.status === 'excluded') return 'player_excluded';
  if (settings.rules.consent && !consents(facts.consent, step, settings.explicitConsent)) return 'no_consent';
  if (settings.rules.harmIndicators && facts.lastHarmAt && facts.now.getTime() - facts.lastHarmAt.getTime() < settings.harm.atRiskDays * 86_400_000)
    return 'harm_indicator';
  if (settings.rules.depositLimit && isRecord(facts.compliance)) {
    const limit = facts.compliance.depositLimit;
    if (typeof limit === 'number' && limit > 0 && facts.depositedInLimitWindow >= limit) return 'deposit_limit_reached';
  }
  if (inQuietHours(settings, facts.jurisdiction, facts.now)) return 'quiet_hours';
  return 'allowed';
}

/**
 * The evidence hash: SHA-256 (hex) of the stable JSON (keys sorted) of `{ compliance, consent }` exactly as the
 * state values were read, null when absent; anyone holding those values can recompute it.
 */
export function complianceStateHash(compliance: unknown, consent: unknown): string {
  return createHash('sha256')
    .update(stableStringify({ compliance: compliance ?? null, consent: consent ?? null }))
    .digest('hex');
}
