import { defaultRevenueRange, lastDays, MAX_RANGE_DAYS, parseRange } from '../../core/analyticsParams';

const now = new Date('2026-11-22T10:00:00Z'); // a Sunday
const fallback = { start: 'x', end: 'y' };

describe('parseRange', () => {
  it('reads the presets as the last N UTC days including today', () => {
    expect(parseRange('7d', now, fallback)).toEqual({ start: '2026-11-16', end: '2026-11-22' });
    expect(parseRange('14d', now, fallback)).toEqual({ start: '2026-11-09', end: '2026-11-22' });
    expect(parseRange('30d', now, fallback)).toEqual({ start: '2026-10-24', end: '2026-11-22' });
    expect(parseRange('90d', now, fallback)).toEqual({ start: '2026-08-25', end: '2026-11-22' });
  });

  it('reads <start>:<end> ISO dates and uses the fallback when absent', () => {
    expect(parseRange('2026-01-01:2026-01-31', now, fallback)).toEqual({ start: '2026-01-01', end: '2026-01-31' });
    expect(parseRange('2026-02-03:2026-02-03', now, fallback)).toEqual({ start: '2026-02-03', end: '2026-02-03' });
    expect(parseRange(undefined, now, fallback)).toBe(fallback);
  });

  it.each([
    '',
    '5d',
    '7D',
    '30',
    'today',
    '2026-01-31:2026-01-01',
    '2026-02-30:2026-03-01',
    '2026-1-1:2026-02-01',
    '2026-01-01',
    '2026-01-01:2026-01-02:2026-01-03',
    '2026-01-01T00:00:00Z:2026-01-02',
  ])('rejects %p', (value) => expect(parseRange(value, now, fallback)).toBeNull());

  it('rejects spans over the maximum', () => {
    expect(MAX_RANGE_DAYS).toBe(36_525);
    expect(parseRange('1900-01-01:2026-01-01', now, fallback)).toBeNull();
    expect(parseRange('1990-01-01:2026-01-01', now, fallback)).not.toBeNull();
  });
});

describe('default revenue lookbacks', () => {
  it('is 30 days daily, 12 weeks from a Monday weekly, 12 months from the 1st monthly', () => {
    expect(defaultRevenueRange('daily', now)).toEqual(lastDays(30, now));
    expect(defaultRevenueRange('weekly', now)).toEqual({ start: '2026-08-31', end: '2026-11-22' });
    expect(new Date('2026-08-31T00:00:00Z').getUTCDay()).toBe(1);
    expect(defaultRevenueRange('monthly', now)).toEqual({ start: '2025-12-01', end: '2026-11-22' });
    expect(defaultRevenueRange('weekly', new Date('2026-11-23T00:00:00Z'))).toEqual({ start: '2026-09-07', end: '2026-11-23' });
  });
});
