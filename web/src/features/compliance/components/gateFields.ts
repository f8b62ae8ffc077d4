import type { SettingsDraft } from './settingsDraft';

/** An optional rule's switch on the gate settings form (the exclusion rule is not one: it is always on). */
export interface RuleSpec {
  key: 'consent' | 'harmIndicators' | 'depositLimit' | 'explicitConsent';
  label: string;
  hint?: string;
}

/** A harm threshold typed as text: `field` is where the API names a problem with it, so it shows beside this input. */
export interface ThresholdSpec {
  key: 'velocityDeposits' | 'velocityAmount' | 'velocityWindow' | 'reversedWindow' | 'atRiskDays';
  label: string;
  field: string;
  hint?: string;
}

/** The optional rules in the order the form shows them. */
export const RULES: readonly RuleSpec[] = [
  { key: 'consent', label: 'Consent: a channel the player refused' },
  { key: 'harmIndicators', label: 'Harm indicators: a player at risk' },
  { key: 'depositLimit', label: "Deposit limit: the player's limit reached" },
  {
    key: 'explicitConsent',
    label: 'Explicit consent (opt-in)',
    hint: 'On: a channel without recorded consent counts as refused. Off: only a recorded refusal does.',
  },
];

/** The harm thresholds in the order the form shows them; the deposit-limit period is a select beside them. */
export const THRESHOLDS: readonly ThresholdSpec[] = [
  { key: 'velocityDeposits', label: 'Deposits in the window', field: 'harm.depositVelocity.deposits', hint: '1 to 1,000' },
  {
    key: 'velocityAmount',
    label: 'Or their sum (minor units)',
    field: 'harm.depositVelocity.amount',
    hint: 'Cents for EUR: 10000 is €100. Empty: the count alone decides',
  },
  { key: 'velocityWindow', label: 'Deposit window (minutes)', field: 'harm.depositVelocity.windowMinutes', hint: 'Up to 10,080 (a week)' },
  { key: 'reversedWindow', label: 'Deposit after a reversed withdrawal within (minutes)', field: 'harm.depositAfterReversedWithdrawal.windowMinutes' },
  { key: 'atRiskDays', label: 'At risk for (days) after an indicator', field: 'harm.atRiskDays', hint: '1 to 365' },
];

/** The deposit-limit periods offered, plus whatever the organisation has saved if it is another. */
export const depositLimitPeriods = (current: SettingsDraft['depositLimitHours']): string[] => [...new Set(['24', '168', '720', current])];

export const periodLabel = (hours: string): string =>
  hours === '24' ? '24 hours' : hours === '168' ? '7 days' : hours === '720' ? '30 days' : `${hours} hours`;
