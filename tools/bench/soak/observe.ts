import { readFileSync } from 'node:fs';
import { parseSamples, sumOf, type Sample } from '../lib/promText';

/** Resident set size of a process in MB (`/proc/<pid>/status`), or NaN once it is gone. */
export function rssMb(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith('VmRSS:'));
    return Number(line?.split(/\s+/)[1]) / 1024;
  } catch {
    return NaN;
  }
}

export async function scrape(url: string): Promise<Sample[]> {
  const answer = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (answer.status !== 200) throw new Error(`${url}: HTTP ${answer.status}`);
  return parseSamples(await answer.text());
}

/** What the soak reads from the two `/metrics` endpoints each minute (docs/metrics.md). */
export interface MetricsReading {
  outboxBacklog: number;
  outboxLagSeconds: number;
  runsRunning: number;
  runsCompleted: number;
  runsFailed: number;
  gatewayOk: number;
  gatewayOther: number;
  batchJobs: number;
  /** Requests the API counted (all routes), to set beside what the soak sent. */
  apiRequests: number;
  poolUsed: number;
  poolMax: number;
}

export async function readMetrics(apiUrl: string, workerUrl: string): Promise<MetricsReading> {
  const [api, worker] = await Promise.all([scrape(apiUrl), scrape(workerUrl)]);
  const gatewayAll = sumOf(worker, 'platform_gateway_calls_total');
  const gatewayOk = sumOf(worker, 'platform_gateway_calls_total', { outcome: 'ok' });
  // The API ends the runs it waits for (manual test runs, MCP tools/call); the worker every other.
  const runsFinished = (labels?: Record<string, string>) =>
    sumOf(api, 'platform_automation_runs_finished_total', labels) + sumOf(worker, 'platform_automation_runs_finished_total', labels);
  const runsCompleted = runsFinished({ status: 'completed' });
  const runsEnded = runsFinished();
  return {
    outboxBacklog: sumOf(api, 'platform_outbox_backlog'),
    outboxLagSeconds: sumOf(api, 'platform_outbox_lag_seconds'),
    runsRunning: sumOf(api, 'platform_automation_runs_running'),
    runsCompleted,
    runsFailed: runsEnded - runsCompleted,
    gatewayOk,
    gatewayOther: gatewayAll - gatewayOk,
    batchJobs: sumOf(worker, 'platform_batch_job_duration_seconds_count'),
    apiRequests: sumOf(api, 'platform_http_request_duration_seconds_count'),
    poolUsed: sumOf(api, 'platform_db_pool_connections', { state: 'used' }),
    poolMax: sumOf(api, 'platform_db_pool_max'),
  };
}

const n = (value: number) => Math.round(value).toLocaleString('en-US');

export function formatMetrics(m: MetricsReading): string {
  return (
    `metrics: outbox backlog ${n(m.outboxBacklog)} (lag ${m.outboxLagSeconds.toFixed(1)} s) · runs running ${n(m.runsRunning)}, completed ${n(m.runsCompleted)}, failed ${n(m.runsFailed)}` +
    ` · gateway ok ${n(m.gatewayOk)}, other ${n(m.gatewayOther)} · batch jobs ${n(m.batchJobs)} · API requests ${n(m.apiRequests)} · db pool ${n(m.poolUsed)}/${n(m.poolMax)}`
  );
}
