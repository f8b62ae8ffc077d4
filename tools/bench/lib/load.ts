import { spawn } from 'node:child_process';
import path from 'node:path';

export interface LoadJob {
  url: string;
  method: 'GET' | 'POST';
  connections: number;
  /** How long to keep the connections busy; requests are counted over this window. */
  seconds: number;
  headers: Record<string, string>;
  /** Requests cycle through these paths and bodies. */
  variants: Array<{ path: string; body?: string }>;
  /** Requests per second over all connections (an open-loop offered rate); as fast as the connections go when absent. */
  overallRate?: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/**
 * Keeps `connections` keep-alive connections busy for `seconds` from a separate load-generator process
 * (autocannon), so the load does not compete with the server for its event loop; rejects when any answer was
 * not 2xx or failed, unless `tolerateFailures` (a load meant to find where the server pushes back counts them instead).
 *
 * @example const result = await runLoad({ url, method: 'POST', connections: 32, seconds: 5, headers, variants })
 */
export async function runLoad(job: LoadJob, options: { tolerateFailures?: boolean } = {}): Promise<LoadResult> {
  const result = await runJsonProcess<LoadResult>(path.join(__dirname, 'loadgen.ts'), job, 'load generator');
  if (!options.tolerateFailures && (result.non2xx > 0 || result.errors > 0))
    throw new Error(`load: ${result.non2xx} non-2xx answers, ${result.errors} errors of ${result.requests}`);
  return result;
}

/** Runs a bench helper `script` as a process of its own, `job` as JSON on its stdin; its last stdout line is its JSON result. */
export async function runJsonProcess<T>(script: string, job: unknown, what: string): Promise<T> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end(JSON.stringify(job));
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${what} exited with ${code}`);
  return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as T;
}
