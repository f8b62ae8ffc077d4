import type { components } from '../../../api/schema';

export type GateSettings = components['schemas']['ComplianceSettings'];

/** The settings form as typed: numbers stay text until saved, so an empty or odd entry reaches the API and comes back named. */
export interface SettingsDraft {
  consent: boolean;
  harmIndicators: boolean;
  depositLimit: boolean;
  explicitConsent: boolean;
  quietHours: Array<{ key: number; jurisdiction: string; from: string; to: string }>;
  depositLimitHours: string;
  velocityDeposits: string;
  velocityAmount: string;
  velocityWindow: string;
  reversedWindow: string;
  atRiskDays: string;
}

let nextKey = 0;
/** A stable React key for a quiet-hours row, so removing one keeps the others' focus and typing. */
export const rowKey = (): number => ++nextKey;

export function draftOf(settings: GateSettings): SettingsDraft {
  return {
    consent: settings.rules.consent,
    harmIndicators: settings.rules.harmIndicators,
    depositLimit: settings.rules.depositLimit,
    explicitConsent: settings.explicitConsent,
    quietHours: settings.quietHours.map((entry) => ({ key: rowKey(), jurisdiction: entry.jurisdiction, from: String(entry.from), to: String(entry.to) })),
    depositLimitHours: String(settings.depositLimitHours),
    velocityDeposits: String(settings.harm.depositVelocity.deposits),
    velocityAmount: settings.harm.depositVelocity.amount === null ? '' : String(settings.harm.depositVelocity.amount),
    velocityWindow: String(settings.harm.depositVelocity.windowMinutes),
    reversedWindow: String(settings.harm.depositAfterReversedWithdrawal.windowMinutes),
    atRiskDays: String(settings.harm.atRiskDays),
  };
}

/**
 * Text as the API's number. An empty or non-numeric entry is sent as it was typed, so the API refuses it and names the
 * field beside the input, rather than the form guessing a number for it.
 */
const num = (text: string): number => {
  const value = Number(text);
  return text.trim() !== '' && Number.isFinite(value) ? value : (text as unknown as number);
};

/** The PUT body: every field sent, so what is saved is what the form shows. */
export function bodyOf(draft: SettingsDraft) {
  return {
    rules: { exclusion: true, consent: draft.consent, harmIndicators: draft.harmIndicators, depositLimit: draft.depositLimit },
    explicitConsent: draft.explicitConsent,
    quietHours: draft.quietHours.map((entry) => ({ jurisdiction: entry.jurisdiction.trim().toUpperCase(), from: num(entry.from), to: num(entry.to) })),
    depositLimitHours: num(draft.depositLimitHours),
    harm: {
      depositVelocity: {
        deposits: num(draft.velocityDeposits),
        amount: draft.velocityAmount.trim() === '' ? null : num(draft.velocityAmount),
        windowMinutes: num(draft.velocityWindow),
      },
      depositAfterReversedWithdrawal: { windowMinutes: num(draft.reversedWindow) },
      atRiskDays: num(draft.atRiskDays),
    },
  };
}
