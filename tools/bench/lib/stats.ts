/** Nearest-rank percentile of an ascending list. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

export interface Measured {
  latencies: number[];
  seconds: number;
}

/**
 * Runs `request` up to `count` times with `concurrency` in flight, stopping early at `timeLimitMs`;
 * latencies come back sorted. `gapMs` pauses each lane between requests (a quiet server's view).
 */
export async function measure(
  request: () => Promise<void>,
  options: { count: number; concurrency: number; timeLimitMs: number; gapMs?: number },
): Promise<Measured> {
  const latencies: number[] = [];
  const deadline = Date.now() + options.timeLimitMs;
  let issued = 0;
  const started = performance.now();
  const lane = async () => {
    while (issued < options.count && Date.now() < deadline) {
      issued += 1;
      const begin = performance.now();
      await request();
      latencies.push(performance.now() - begin);
      if (options.gapMs) await new Promise((resolve) => setTimeout(resolve, options.gapMs));
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, lane));
  return { latencies: latencies.sort((a, b) => a - b), seconds: (performance.now() - started) / 1000 };
}

export const fmt = (value: number, digits = 1) => value.toFixed(digits);
export const say = (line: string) => process.stdout.write(`${line}\n`);

/** The phases of alternating rounds as one: their latencies pooled, their time summed. */
export const pooled = (phases: Measured[]): Measured => ({
  latencies: phases.flatMap((phase) => phase.latencies).sort((a, b) => a - b),
  seconds: phases.reduce((sum, phase) => sum + phase.seconds, 0),
});

/** The middle value; of an even count, the mean of the two middle ones (neither favours a ratio's side). */
export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * Sequential calls of two shapes taken one call at a time in the order A B B A A B B A…, `count` of each. Two calls of
 * a pair lie tens of milliseconds apart, so the machine's drift — its speed moves by up to 2× over tens of seconds
 * here, with the CPU the calls use per second unchanged (docs/benchmarks.md) — falls on both shapes alike; and each
 * shape follows itself as often as the other, so what one call leaves behind (an eviction, a socket's close) lands on
 * both alike. Each shape's `seconds` is the time spent in its own calls.
 */
export async function interleaved(
  a: () => Promise<void>,
  b: () => Promise<void>,
  options: { count: number; timeLimitMs: number },
): Promise<[Measured, Measured]> {
  const times = { a: [] as number[], b: [] as number[] };
  const deadline = Date.now() + options.timeLimitMs;
  for (let call = 0; call < 2 * options.count && Date.now() < deadline; call += 1) {
    const first = call % 4 === 0 || call % 4 === 3;
    const begin = performance.now();
    await (first ? a : b)();
    (first ? times.a : times.b).push(performance.now() - begin);
  }
  const measured = (latencies: number[]): Measured => ({
    latencies: latencies.sort((x, y) => x - y),
    seconds: latencies.reduce((sum, ms) => sum + ms, 0) / 1000,
  });
  return [measured(times.a), measured(times.b)];
}

/**
 * Phases of two shapes, `count` calls each at `concurrency`, in the order A B B A A B…, `pairs` of them: short phases
 * many times over, for what per-call turns cannot measure (throughput under concurrency). Returns each shape's
 * phases in order, the i-th of A adjacent to the i-th of B.
 */
export async function alternatingPhases(
  a: () => Promise<void>,
  b: () => Promise<void>,
  options: { pairs: number; count: number; concurrency: number; timeLimitMs: number },
): Promise<[Measured[], Measured[]]> {
  const run = (request: () => Promise<void>) => measure(request, { count: options.count, concurrency: options.concurrency, timeLimitMs: options.timeLimitMs });
  return abba(
    () => run(a),
    () => run(b),
    options.pairs,
  );
}

/** `pairs` pairs of phases of two shapes in the order A B B A A B…; each shape's phases in order, the i-th of A adjacent to the i-th of B. */
export async function abba<T>(a: () => Promise<T>, b: () => Promise<T>, pairs: number): Promise<[T[], T[]]> {
  const phases: [T[], T[]] = [[], []];
  for (let pair = 0; pair < pairs; pair += 1) {
    if (pair % 2 === 0) {
      phases[0].push(await a());
      phases[1].push(await b());
    } else {
      phases[1].push(await b());
      phases[0].push(await a());
    }
  }
  return phases;
}

/** Calls per second of a phase, or of phases pooled. */
export const throughput = (phase: Measured) => phase.latencies.length / phase.seconds;

/** How many times the floor's p50 a shape's p50 is: `shape` over `floor`. */
export const p50Ratio = (shape: Measured, floor: Measured) => percentile(shape.latencies, 50) / percentile(floor.latencies, 50);
