import { INTAKE_REST_MAX_MS, IntakePacer } from '../../activities/intakePacer';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A chunk that takes `ms` and records when it began and ended (ms since the test's start). */
function chunks(t0: number) {
  const spans: Array<{ begin: number; end: number }> = [];
  const chunk = (ms: number) => async () => {
    const span = { begin: performance.now() - t0, end: 0 };
    spans.push(span);
    await sleep(ms);
    span.end = performance.now() - t0;
    return spans.length;
  };
  return { spans, chunk };
}

describe('IntakePacer', () => {
  it('runs chunks side by side, without rest, while no other organisation is live', async () => {
    const pacer = new IntakePacer(() => false);
    const { spans, chunk } = chunks(performance.now());
    await Promise.all([pacer.paced('op-a', chunk(60)), pacer.paced('op-a', chunk(60))]);
    expect(spans[1]!.begin).toBeLessThan(spans[0]!.end);
    const after = performance.now();
    await pacer.paced('op-a', chunk(1));
    expect(performance.now() - after).toBeLessThan(40);
  });

  it('beside a live organisation takes chunks one at a time, each followed by a rest as long as it took', async () => {
    const pacer = new IntakePacer((operatorId) => operatorId !== 'op-live');
    const { spans, chunk } = chunks(performance.now());
    const results = await Promise.all([pacer.paced('op-a', chunk(80)), pacer.paced('op-b', chunk(80)), pacer.paced('op-a', chunk(80))]);
    expect(results).toEqual([1, 2, 3]);
    for (const [before, next] of [
      [spans[0]!, spans[1]!],
      [spans[1]!, spans[2]!],
    ] as const) {
      // The next chunk begins after the one before it ended and then rested about as long as it ran (timers run late, never early).
      expect(next.begin - before.end).toBeGreaterThanOrEqual(75);
      expect(next.begin - before.end).toBeLessThan(400);
    }
  });

  it('returns a chunk when it is written: its rest is taken by the next turn', async () => {
    const pacer = new IntakePacer(() => true);
    const { chunk } = chunks(performance.now());
    const before = performance.now();
    await pacer.paced('op-a', chunk(100));
    expect(performance.now() - before).toBeLessThan(180);
  });

  it('caps the rest after a slow chunk, and a failed chunk still hands on its turn', async () => {
    let now = 0;
    const pacer = new IntakePacer(
      () => true,
      0.5,
      () => now,
    );
    await expect(
      pacer.paced('op-a', async () => {
        now += 60_000;
        throw new Error('chunk failed');
      }),
    ).rejects.toThrow('chunk failed');
    const before = performance.now();
    await pacer.paced('op-a', async () => 'next');
    const waited = performance.now() - before;
    // The rest began when the chunk failed, a moment before `before`; uncapped it would have been a minute.
    expect(waited).toBeGreaterThanOrEqual(INTAKE_REST_MAX_MS - 200);
    expect(waited).toBeLessThan(INTAKE_REST_MAX_MS + 1000);
  });
});
