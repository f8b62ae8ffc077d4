import { LANE_SKIP_CODES, laneSkipMessage, type LaneSkipReason } from '../../core/automations/laneSkips';

/** The rule each run-control skip names in its record (docs/workflows.md "Skipped triggers"). */
describe('laneSkipMessage', () => {
  it('names the rule that held the trigger back, for every lane reason', () => {
    const slots = { concurrency: { limit: 2, when_busy: 'queue' as const } };
    expect(laneSkipMessage({ reason: 'throttled', control: { throttle: { limit: 1, period_seconds: 60 } } })).toBe(
      'Over the throttle: 1 trigger per 60 s for this key',
    );
    expect(laneSkipMessage({ reason: 'throttled', control: { throttle: { limit: 5, period_seconds: 3600 } } })).toBe(
      'Over the throttle: 5 triggers per 3600 s for this key',
    );
    expect(laneSkipMessage({ reason: 'debounced', control: { debounce: { quiet_seconds: 30 } }, supersededBy: 'evt_2' })).toBe(
      'Superseded by a later event of the same key (evt_2) within the debounce of 30 s',
    );
    expect(laneSkipMessage({ reason: 'busy', control: { concurrency: { limit: 1, when_busy: 'skip' } } })).toBe(
      "Skipped: the key's runs were all busy (1 run at a time per key, when busy: skip)",
    );
    expect(laneSkipMessage({ reason: 'queue_full', control: slots })).toBe("Skipped: the key's queue was full (2 runs at a time per key, when busy: queue)");
    expect(laneSkipMessage({ reason: 'replaced', control: { concurrency: { limit: 1, when_busy: 'replace' } } })).toBe(
      "Replaced in the key's queue by a later trigger (1 run at a time per key, when busy: replace)",
    );
    expect(laneSkipMessage({ reason: 'cancelled', control: { cancel_on: ['entity_event.withdrawal'] } })).toBe(
      "Dropped while waiting: a cancel_on event ended the key's runs",
    );
  });

  it('still says something when the control changed and no longer has the rule', () => {
    expect(laneSkipMessage({ reason: 'throttled', control: {} })).toBe('Over the throttle');
    expect(laneSkipMessage({ reason: 'debounced', control: {} })).toBe('Superseded by a later event of the same key within the debounce');
  });

  it('has a code for each reason, its reason in capitals', () => {
    for (const [reason, code] of Object.entries(LANE_SKIP_CODES)) expect(code).toBe((reason as LaneSkipReason).toUpperCase());
  });
});
