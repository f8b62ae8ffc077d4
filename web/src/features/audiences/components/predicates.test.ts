import { describe, expect, it } from '@jest/globals';
import { describeDefinition, describePredicate, FIELD_NAMES, FIELDS } from './predicates';

describe('audience predicates in words', () => {
  it('says each field, its operator, value, currency and window as the audience page shows them', () => {
    expect(describePredicate({ field: 'ftd_days_ago', op: 'lte', value: 6 })).toBe('Days since first deposit ≤ 6');
    expect(describePredicate({ field: 'deposit_count', op: 'eq', value: 1 })).toBe('Number of deposits = 1 (all time)');
    expect(describePredicate({ field: 'deposit_count', op: 'gte', value: 2, days: 1 })).toBe('Number of deposits ≥ 2 in the last day');
    expect(describePredicate({ field: 'deposit_amount', op: 'gt', value: 2000, currency: 'EUR', days: 30 })).toBe(
      'Deposit amount in EUR > €20.00 in the last 30 days',
    );
    expect(describePredicate({ field: 'last_activity_days_ago', op: 'gte', value: 14 })).toBe('Days since last activity ≥ 14');
    expect(describePredicate({ field: 'ggr', op: 'ne', value: 0, currency: 'GBP' })).toBe('GGR to date in GBP ≠ £0.00');
    expect(describePredicate({ field: 'state', key: 'tier', op: 'in', value: ['gold', 5] })).toBe('State tier is one of “gold”, 5');
    expect(describePredicate({ field: 'state', key: 'vip', op: 'eq', value: true })).toBe('State vip = true');
    expect(describePredicate({ field: 'state', key: 'flag', op: 'not_exists' })).toBe('State flag is not set');
    expect(describePredicate({ field: 'country', op: 'not_in', value: ['MT', 'GB'] })).toBe('Country is none of MT, GB');
  });

  it('says how the predicates combine', () => {
    expect(describeDefinition({ any: [{ field: 'ftd_days_ago', op: 'lt', value: 3 }] })).toEqual({ combine: 'any', lines: ['Days since first deposit < 3'] });
  });

  it('offers every field with at least one operator, and the list operators only where the API takes them', () => {
    for (const field of FIELD_NAMES) expect(FIELDS[field].ops.length).toBeGreaterThan(0);
    expect(FIELDS.country.ops).toEqual(['in', 'not_in']);
    expect(FIELD_NAMES.filter((field) => FIELDS[field].ops.includes('in'))).toEqual(['state', 'country']);
  });
});
