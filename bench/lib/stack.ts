import type { AppDeps } from '../../api/deps';
import type { Db } from '../../db/knex';
import { startThrowawayServices } from '../../devstack/throwawayServices';
import { LOAD_RATE_LIMITS } from '../../processes/loadRateLimits';
import { startStack } from '../../processes/stack';

export { signUpOperator as benchOperator, post, supplierConnection } from '../../processes/stackClient';

export interface BenchStack {
  url: string;
  /** The in-process worker's pool. */
  db: Db;
  deps: AppDeps;
  /** Process ids of the servers the stack started, for CPU accounting (`bench/lib/cpu.ts`). */
  pids: { node: number; postgres: number | undefined; temporal: number | undefined };
  databaseUrl: string;
  /** The Temporal server the stack runs on, for a benchmark's bare shapes (bench/lib/bareTemporal.ts). */
  temporalAddress: string;
  stop(): Promise<void>;
}

/**
 * A complete throw-away platform for a benchmark (processes/stack.ts): embedded PostgreSQL and a Temporal dev
 * server in a temp directory, migrations, an in-process worker whose connection the API shares (eager starts) and
 * the API on a loopback port, each with a pool of 30. `env` overrides configuration (rate limits, chunk sizes).
 */
export async function startBenchStack(env: Record<string, string> = {}, log: (line: string) => void = () => undefined): Promise<BenchStack> {
  const stack = await startStack({
    services: startThrowawayServices,
    env: { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', TEMPORAL_TASK_QUEUE: 'bench', ...LOAD_RATE_LIMITS, ...env },
    poolMax: 30,
    log,
  });
  return {
    url: stack.api.url,
    db: stack.db,
    deps: stack.api.deps,
    pids: { node: process.pid, ...stack.services.pids() },
    databaseUrl: stack.services.databaseUrl,
    temporalAddress: stack.services.temporalAddress,
    stop: stack.close,
  };
}
