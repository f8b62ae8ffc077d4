import { alternatingPhases, interleaved, p50Ratio, percentile, pooled, throughput, type Measured } from './stats';

/** The three ways to the same floor a hot-path benchmark compares: bare, behind the bare hop, and the platform's. */
export interface HopShapes {
  floor: () => Promise<void>;
  hop: () => Promise<void>;
  platform: () => Promise<void>;
}

export interface HopFigures {
  /**
   * The hop against the floor, and the platform against the hop: p50 of sequential calls in turns, and of the
   * concurrent phases in turns their pooled throughput and p50.
   */
  hop: { p50: number; throughput: number; concurrentP50: number; p50ms: number; floorP50ms: number };
  platform: { p50: number; throughput: number; concurrentP50: number; p50ms: number; hopP50ms: number };
}

/**
 * The HTTP hop alone (tools/bench/lib/bareHop.ts) beside the floor, and the platform beside the hop: each pair in turns,
 * `count` sequential calls each (A B B A…) and `pairs` pairs of concurrent phases, so a benchmark can tell what the
 * hop costs from what the platform does on top of it. Each ratio holds within its own pass only: the machine's speed
 * moves between passes, so the two do not multiply to the platform's ratio against the floor.
 */
export async function measureHop(
  shapes: HopShapes,
  options: { count: number; pairs: number; phaseCount: number; concurrency: number; timeLimitMs: number },
): Promise<HopFigures> {
  const turns = { count: options.count, timeLimitMs: options.timeLimitMs };
  const phases = { pairs: options.pairs, count: options.phaseCount, concurrency: options.concurrency, timeLimitMs: options.timeLimitMs };
  const [floorSeq, hopSeq] = await interleaved(shapes.floor, shapes.hop, turns);
  const [hopFloorSeq, platformSeq] = await interleaved(shapes.hop, shapes.platform, turns);
  const [floorConc, hopConc] = await alternatingPhases(shapes.floor, shapes.hop, phases);
  const [hopFloorConc, platformConc] = await alternatingPhases(shapes.hop, shapes.platform, phases);
  const ratio = (of: Measured[], to: Measured[]) => throughput(pooled(of)) / throughput(pooled(to));
  const p50 = (phase: Measured) => percentile(phase.latencies, 50);
  const concurrentP50 = (of: Measured[], to: Measured[]) => p50Ratio(pooled(of), pooled(to));
  return {
    hop: {
      p50: p50Ratio(hopSeq, floorSeq),
      throughput: ratio(hopConc, floorConc),
      concurrentP50: concurrentP50(hopConc, floorConc),
      p50ms: p50(hopSeq),
      floorP50ms: p50(floorSeq),
    },
    platform: {
      p50: p50Ratio(platformSeq, hopFloorSeq),
      throughput: ratio(platformConc, hopFloorConc),
      concurrentP50: concurrentP50(platformConc, hopFloorConc),
      p50ms: p50(platformSeq),
      hopP50ms: p50(hopFloorSeq),
    },
  };
}

/**
 * One line for the figures: where the hop ran, and each ratio with its medians. `concurrent` names the figure of the
 * concurrent phases the benchmark's target reads: pooled throughput (the gateway's) or p50 (`tools/call`'s; a single
 * slow start in a short phase moves its throughput more than its p50).
 */
export function describeHop(
  figures: HopFigures,
  options: { apart: boolean; pairs: number; concurrency: number; platform: string; concurrent: 'throughput' | 'p50' },
): string {
  const { hop, platform } = figures;
  const concurrent = (of: HopFigures['hop'] | HopFigures['platform']) =>
    options.concurrent === 'throughput' ? `throughput ${of.throughput.toFixed(2)}×` : `p50 ${of.concurrentP50.toFixed(2)}×`;
  return (
    `the HTTP hop alone (the bare shape behind a bare Koa handler that reads the body and answers JSON, tools/bench/lib/bareHop.ts, ` +
    `${options.apart ? 'in a process of its own as the API is' : 'in this process as the API is'}): ` +
    `p50 ${hop.p50.toFixed(2)}× the bare (${hop.p50ms.toFixed(2)} ms against ${hop.floorP50ms.toFixed(2)} ms), ` +
    `${options.concurrency}-concurrent ${concurrent(hop)} (${options.pairs} pairs); ` +
    `${options.platform} against it: p50 ${platform.p50.toFixed(2)}× (${platform.p50ms.toFixed(2)} ms against ${platform.hopP50ms.toFixed(2)} ms; calls in turns each), ` +
    `${options.concurrency}-concurrent ${concurrent(platform)} (${options.pairs} pairs)`
  );
}
