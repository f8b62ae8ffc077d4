import { previousRange } from '../../api/analytics-api/business';
import { figuresOf } from '../../db/queries/analyticsBusiness';

describe('previousRange', () => {
  it.each([
    [
      { start: '2026-03-01', end: '2026-03-01' },
      { start: '2026-02-28', end: '2026-02-28' },
    ],
    [
      { start: '2024-03-01', end: '2024-03-30' },
      { start: '2024-01-31', end: '2024-02-29' },
    ],
    [
      { start: '2026-01-01', end: '2026-12-31' },
      { start: '2025-01-01', end: '2025-12-31' },
    ],
  ])('%j → %j: as many days, ending the day before', (range, expected) => {
    expect(previousRange(range)).toEqual(expected);
  });
});

describe('figuresOf', () => {
  it('ratios are 0 without a denominator; rounded as documented', () => {
    const empty = figuresOf({});
    expect([empty.conversion_rate, empty.arpu, empty.arppu]).toEqual([0, 0, 0]);
    const some = figuresOf({ registrations: '3', converted_players: '2', ggr: '1000', active_players: '3', depositing_players: '7', deposit_failed: '4' });
    expect([some.conversion_rate, some.arpu, some.arppu, some.deposits.counts.failed]).toEqual([0.6667, 333.33, 142.86, 4]);
  });
});
