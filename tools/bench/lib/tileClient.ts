/**
 * The figure client of `bench:analytics`, in a process of its own so that the process under test (the API and the
 * worker) spends its CPU on answering: a JSON {@link TileJob} on stdin, one JSON {@link TileResult} line on stdout.
 */
import { readFileSync } from 'node:fs';
import { measure } from './stats';

export interface TileJob {
  url: string;
  apiKey: string;
  path: string;
  /** Whether the rollups should answer (`refreshed_at` set) or the raw tables (`refreshed_at: null`). */
  rollups: boolean;
  /** Requests before the measured ones, not counted in them. */
  warmUp: number;
  count: number;
  concurrency: number;
  timeLimitMs: number;
}

export interface TileResult {
  /** The warm-up's latencies, sorted, ms. */
  warmUp: number[];
  /** Sorted, ms. */
  latencies: number[];
  /** A raw read PostgreSQL cancelled at its statement timeout (503 `QUERY_TIMEOUT`): the figure is over it. */
  over: boolean;
}

async function main(job: TileJob): Promise<TileResult> {
  let over = false;
  const request = async () => {
    if (over) return;
    const response = await fetch(`${job.url}/analytics-api/analytics${job.path}`, { headers: { authorization: `Bearer ${job.apiKey}` } });
    const body = (await response.json()) as { data: { refreshed_at?: string | null }; error?: { code: string } };
    if (!job.rollups && response.status === 503 && body.error?.code === 'QUERY_TIMEOUT') return void (over = true);
    if (response.status !== 200) throw new Error(`${job.path}: HTTP ${response.status}`);
    if ((body.data.refreshed_at !== null) !== job.rollups) throw new Error(`${job.path}: answered by the wrong path`);
  };
  const warmUp = await measure(request, { count: job.warmUp, concurrency: job.concurrency, timeLimitMs: job.timeLimitMs });
  const run = await measure(request, { count: job.count, concurrency: job.concurrency, timeLimitMs: job.timeLimitMs });
  return { warmUp: warmUp.latencies, latencies: run.latencies, over };
}

main(JSON.parse(readFileSync(0, 'utf8')) as TileJob).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
