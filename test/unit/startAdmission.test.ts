import { StartAdmission, TARGET_BACKLOG_MS } from '../../worker/startAdmission';

/** An admission on a clock the test moves: the platform's rate starting at `initialRate`; each operator's own budget out of the way unless given. */
function admission(initialRate = 200, own = { perSecond: 100_000, burst: 100_000 }) {
  let now = 0;
  const starts = new StartAdmission(own.perSecond, own.burst, { maxRate: 1000, initialRate, now: () => now });
  return { starts, advance: (ms: number) => (now += ms) };
}

/** Takes starts one at a time for `operatorId` every `everyMs` over `ms`; answers how many it got. */
function drive(
  starts: StartAdmission,
  advance: (ms: number) => void,
  demands: Record<string, number>,
  ms: number,
  light: ReadonlySet<string> = new Set(),
): Record<string, number> {
  const got: Record<string, number> = Object.fromEntries(Object.keys(demands).map((operator) => [operator, 0]));
  for (let at = 0; at < ms; at += 10) {
    advance(10);
    for (const [operator, perSecond] of Object.entries(demands)) {
      const due = Math.floor(((at + 10) * perSecond) / 1000) - Math.floor((at * perSecond) / 1000);
      for (let i = 0; i < due; i++) if (starts.take(operator, 1, light.has(operator))) got[operator]! += 1;
    }
  }
  return got;
}

describe('StartAdmission', () => {
  it("cuts the platform's rate to three quarters of what it admitted when the queue's backlog passes the target", () => {
    const { starts, advance } = admission();
    expect(starts.admittedRate).toBe(200);
    drive(starts, advance, { heavy: 40 }, 1000);
    starts.observe(TARGET_BACKLOG_MS + 1, 1000);
    expect(starts.admittedRate).toBeCloseTo(30, 0);
  });

  it('grows it a tenth at a time while starts are refused and the queue keeps up; lets it fall when nothing waits', () => {
    const { starts, advance } = admission();
    drive(starts, advance, { heavy: 1000, other: 1 }, 1000);
    starts.observe(TARGET_BACKLOG_MS + 1, 1000);
    const cut = starts.admittedRate;
    drive(starts, advance, { heavy: 1000, other: 1 }, 1000);
    starts.observe(0, 1000);
    expect(starts.admittedRate).toBeCloseTo(cut * 1.1 + 1, 5);
    advance(1000);
    starts.observe(0, 1000);
    expect(starts.admittedRate).toBe(5);
  });

  it('lets an unused rate fall back to twice what was admitted, so a burst climbs to what the queue keeps up with', () => {
    const { starts, advance } = admission(200, { perSecond: 50, burst: 500 });
    expect(drive(starts, advance, { a: 40, b: 40 }, 1000)).toEqual({ a: 40, b: 40 });
    starts.observe(0, 1000);
    expect(starts.admittedRate).toBe(160);
    drive(starts, advance, { bystander: 5 }, 1000);
    starts.observe(0, 1000);
    expect(starts.admittedRate).toBe(10);
    // The burst that follows gets the fallen rate's bucket and a second of debt, not a second of the old 200/s…
    expect(drive(starts, advance, { heavy: 1000, bystander: 5 }, 1000).heavy).toBeLessThanOrEqual(10 / 2 + 10 + 10);
    // …and a tenth more each second the queue keeps up.
    for (let second = 0; second < 10; second += 1) {
      starts.observe(0, 1000);
      drive(starts, advance, { heavy: 1000, bystander: 5 }, 1000);
    }
    // 10 × 1.1 + 1, ten times over.
    expect(starts.admittedRate).toBeCloseTo(
      Array.from({ length: 10 }).reduce<number>((rate) => rate * 1.1 + 1, 10),
      5,
    );
  });

  it('holds back nobody while only one operator starts runs: there is no one to share with', () => {
    const { starts, advance } = admission(10);
    expect(drive(starts, advance, { alone: 200 }, 2000).alone).toBe(400);
  });

  it('serves a light operator at once while a backlogged one takes only what it leaves', () => {
    // The platform runs 30 starts a second: the heavy operator wants 500, the bystander 10.
    const { starts, advance } = admission(30);
    const rate = starts.admittedRate;
    // The bystander starts its few runs, then the heavy operator arrives: its first rush runs the platform's bucket into
    // debt, which becomes its own once it is refused, so the bystander never waits.
    drive(starts, advance, { bystander: 10 }, 1000);
    const got = drive(starts, advance, { heavy: 500, bystander: 10 }, 5000);
    expect(got.bystander).toBe(50);
    expect(got.heavy).toBeGreaterThan(5 * (rate - 10) - rate);
    expect(got.heavy).toBeLessThan(5 * (rate - 10) + rate);
  });

  it('serves an operator with few runs in flight whole, even when the platform rate is at its floor below its demand', () => {
    // The queue is slow, so the rate falls to its floor of 5/s; the bystander wants 8/s, a burst 500/s.
    const cut = () => {
      const { starts, advance } = admission(30);
      for (let second = 0; second < 10; second += 1) {
        drive(starts, advance, { heavy: 500 }, 1000);
        starts.observe(TARGET_BACKLOG_MS + 1, 1000);
      }
      expect(starts.admittedRate).toBe(5);
      return { starts, advance };
    };
    const shared = cut();
    const asBacklogged = drive(shared.starts, shared.advance, { heavy: 500, bystander: 8 }, 10_000);
    expect(asBacklogged.bystander).toBeLessThan(60);
    const light = cut();
    const asLight = drive(light.starts, light.advance, { heavy: 500, bystander: 8 }, 10_000, new Set(['bystander']));
    expect(asLight.bystander).toBe(80);
    // Its starts came out of the platform's: the burst got less than beside a bystander held to a share.
    expect(asLight.heavy).toBeLessThan(asBacklogged.heavy!);
  });

  it('lets light operators together take whole no more than the platform is ever configured for (maxRate)', () => {
    // 300 light operators at 10/s each ask 3,000/s together; maxRate is 1,000/s and the platform's rate 200/s.
    const { starts, advance } = admission(200);
    const demands = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`light-${i}`, 10]));
    const got = drive(starts, advance, demands, 5000, new Set(Object.keys(demands)));
    const total = Object.values(got).reduce((sum, n) => sum + n, 0);
    // Served whole at most maxRate a second plus a second's worth, then shared at the platform's rate.
    expect(total).toBeLessThanOrEqual(1000 * 5 + 1000 + 200 * 5);
    expect(total).toBeGreaterThanOrEqual(1000 * 5);
  });

  it('shares in turn between operators that are both backlogged', () => {
    const { starts, advance } = admission(20);
    const got = drive(starts, advance, { a: 500, b: 500 }, 10_000);
    expect(Math.abs(got.a! - got.b!)).toBeLessThan(0.2 * (got.a! + got.b!));
  });

  it("never lets one operator past its own budget, whatever the platform's rate", () => {
    const { starts, advance } = admission(200, { perSecond: 50, burst: 500 });
    const got = drive(starts, advance, { alone: 1000 }, 10_000);
    expect(got.alone).toBeLessThanOrEqual(500 + 50 * 10);
  });

  it('says how long a refused operator waits', () => {
    const { starts, advance } = admission(10);
    drive(starts, advance, { heavy: 1000, other: 1 }, 1000);
    starts.observe(TARGET_BACKLOG_MS + 1, 1000);
    // Backlogged, it waits until its credit is back: at most its one-second debt, at its share of the new rate (two
    // operators backlogged here, each with half).
    while (starts.take('heavy'));
    expect(starts.waitMs('heavy', 1)).toBeGreaterThan(0);
    expect(starts.waitMs('heavy', 1)).toBeLessThanOrEqual(Math.ceil(((starts.admittedRate + 1) / (starts.admittedRate / 2)) * 1000));
  });
});
