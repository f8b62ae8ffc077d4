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
