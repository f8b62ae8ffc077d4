/** The part of the time a worker gives batch chunks while another organisation's runs are live. */
export const INTAKE_SHARE = 0.5;
/** The longest rest after one chunk: a chunk slowed by a lock or a slow disk does not stop intake for as long again. */
export const INTAKE_REST_MAX_MS = 2_000;

/**
 * Batch intake's pace beside live traffic (docs/data-ingestion.md "Batches yield to live runs"). A chunk of 1,000
 * events holds a worker's thread and a PostgreSQL backend for a few hundred milliseconds (validation here, the insert
 * and its outbox rows there; two jobs' chunks at once fill a small machine), and a batch job's chunks follow each
 * other: alone, that is the intake's whole speed and costs nobody anything. While another organisation has started or
 * woken a run lately (`othersLive`), chunks of this worker take turns, one at a time, and after each the next waits as
 * long again as it took ({@link INTAKE_SHARE}): the other organisation's starts, activities and queries find a core
 * free. Nothing waits inside the activity: it returns when its chunk is written, and the rest is taken by the next
 * chunk's turn.
 *
 * @example const result = await pacer.paced(operatorId, () => processBatchChunk(deps, input))
 */
export class IntakePacer {
  /** The end of the queue of turns: a chunk's write, then its rest. */
  private turn: Promise<void> = Promise.resolve();

  constructor(
    private readonly othersLive: (operatorId: string) => boolean,
    private readonly share = INTAKE_SHARE,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async paced<T>(operatorId: string, chunk: () => Promise<T>): Promise<T> {
    if (!this.othersLive(operatorId)) return chunk();
    const before = this.turn;
    let release!: () => void;
    this.turn = new Promise<void>((resolve) => (release = resolve));
    await before;
    const started = this.now();
    try {
      return await chunk();
    } finally {
      const rest = this.othersLive(operatorId) ? Math.min(INTAKE_REST_MAX_MS, ((this.now() - started) * (1 - this.share)) / this.share) : 0;
      setTimeout(release, rest).unref();
    }
  }
}
