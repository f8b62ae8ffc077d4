import { describe, expect, it } from '@jest/globals';
import { depositLimitPeriods, periodLabel, RULES, THRESHOLDS } from './gateFields';
import { bodyOf, draftOf, type GateSettings } from './settingsDraft';

const SETTINGS: GateSettings = {
  rules: { exclusion: true, consent: true, harmIndicators: false, depositLimit: true },
  explicitConsent: false,
  quietHours: [{ jurisdiction: 'GB', from: 22, to: 8 }],
  depositLimitHours: 168,
  harm: { depositVelocity: { deposits: 5, amount: 10000, windowMinutes: 60 }, depositAfterReversedWithdrawal: { windowMinutes: 30 }, atRiskDays: 14 },
};

const at = (value: unknown, field: string): unknown => field.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], value);

/**
 * The gate settings form draws its rule switches and threshold inputs from one table each (gateFields.ts): a threshold
 * must name the body field its input fills, or the API's problem for that field shows beside another input.
 */
describe('gate settings form fields', () => {
  it('each threshold input fills exactly the body field its problems are named by', () => {
    const draft = draftOf(SETTINGS);
    for (const threshold of THRESHOLDS) {
      const edited = { ...draft, [threshold.key]: '4321' };
      expect({ key: threshold.key, value: at(bodyOf(edited), threshold.field) }).toEqual({ key: threshold.key, value: 4321 });
      expect(at(bodyOf(draft), threshold.field)).toBe(at(SETTINGS, threshold.field));
    }
  });

  it('offers every optional rule and every harm threshold the settings carry, each once', () => {
    expect(RULES.map((rule) => rule.key).sort()).toEqual(['consent', 'depositLimit', 'explicitConsent', 'harmIndicators']);
    expect(THRESHOLDS.map((threshold) => threshold.field).sort()).toEqual([
      'harm.atRiskDays',
      'harm.depositAfterReversedWithdrawal.windowMinutes',
      'harm.depositVelocity.amount',
      'harm.depositVelocity.deposits',
      'harm.depositVelocity.windowMinutes',
    ]);
  });

  it('keeps a saved deposit-limit period that is not one of the offered three, and names each', () => {
    expect(depositLimitPeriods('168')).toEqual(['24', '168', '720']);
    expect(depositLimitPeriods('48')).toEqual(['24', '168', '720', '48']);
    expect(['24', '168', '720', '48'].map(periodLabel)).toEqual(['24 hours', '7 days', '30 days', '48 hours']);
  });
});
