import { StartAdmission } from '../../worker/startAdmission';

/** An admission on a clock the test moves, its platform rate at 20/s; each operator's own budget out of the way. */
function admission(initialRate = 20) {
  let now = 0;
  const starts = new StartAdmission(100_000, 100_000, { maxRate: 1000, initialRate, now: () => now });
  return { starts, advance: (ms: number) => (now += ms) };
}

/**
 * One second of two operators asking for more than the rate gives, then a look with `delays` heard and the queue
 * without a backlog: the rate grows (starts wait, nothing is slow) or is cut (the delays say the platform is slow).
 */
function busyLook(starts: StartAdmission, advance: (ms: number) => void, delays: number[]): 'grown' | 'cut' {
  advance(1000);
  while (starts.take('a', 1));
  while (starts.take('b', 1));
  const before = starts.admittedRate;
  for (const ms of delays) starts.noteStartDelay(ms);
  starts.observe(0, 1000);
  return starts.admittedRate > before ? 'grown' : 'cut';
}

describe('StartAdmission: start delays', () => {
  it("cuts the rate when runs waited for their first step past twice the floor, though Temporal's queue has no backlog", () => {
    const { starts, advance } = admission();
    expect(busyLook(starts, advance, [30, 30, 30, 30, 30])).toBe('grown');
    // The 90th percentile of five is the slowest: one bystander held behind a burst is enough.
    expect(busyLook(starts, advance, [30, 30, 30, 30, 61])).toBe('cut');
  });

  it('holds a look against the lowest median so far, with 25 ms of slack over a fast floor', () => {
    const { starts, advance } = admission();
    busyLook(starts, advance, [10, 10, 10]);
    expect(busyLook(starts, advance, [35, 35, 35])).toBe('grown');
    expect(busyLook(starts, advance, [36, 36, 36])).toBe('cut');
  });

  it('judges nothing from fewer than three delays, and forgets a floor after five minutes of looks', () => {
    const { starts, advance } = admission();
    expect(busyLook(starts, advance, [5_000, 5_000])).toBe('grown');
    busyLook(starts, advance, [10, 10, 10]);
    const verdicts = Array.from({ length: 300 }, () => busyLook(starts, advance, [100, 100, 100]));
    expect(verdicts.slice(0, 299).every((verdict) => verdict === 'cut')).toBe(true);
    expect(verdicts[299]).toBe('grown');
    expect(busyLook(starts, advance, [150, 150, 150])).toBe('grown');
    expect(busyLook(starts, advance, [201, 201, 201])).toBe('cut');
  });
});

describe('StartAdmission: lane pacing', () => {
  it("spaces a sharing operator's lane starts a second over the platform's rate, taking places one after another", () => {
    const { starts, advance } = admission(20);
    starts.take('bystander', 1);
    const gap = starts.laneGapMs('noisy');
    expect(gap).toBe(50);
    expect([starts.pace('noisy', gap), starts.pace('noisy', gap), starts.pace('noisy', gap)]).toEqual([0, 50, 100]);
    advance(500);
    expect(starts.pace('noisy', gap)).toBe(0);
  });

  it('leaves an operator alone, or light, unpaced', () => {
    const { starts } = admission(20);
    expect(starts.laneGapMs('alone')).toBe(0);
    starts.take('other', 1);
    expect(starts.laneGapMs('light', true)).toBe(0);
    expect(starts.pace('light', 0)).toBe(0);
  });

  it("gives a backlogged operator its share's gap, at most a second", () => {
    const { starts } = admission(5);
    starts.take('bystander', 1);
    for (const operator of ['a', 'b', 'c', 'd', 'e', 'f']) while (starts.take(operator, 1));
    // Six operators refused share 5/s: under one start a second each, still one a second.
    expect(starts.laneGapMs('a')).toBe(1000);
  });
});
