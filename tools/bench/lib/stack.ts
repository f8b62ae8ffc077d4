import type { AppDeps } from '../../../api/deps';
import { loadConfig } from '../../../core/config';
import { Keyring, parseDataKey } from '../../../core/crypto';
import type { Db } from '../../../db/knex';
import { startThrowawayServices } from '../../stack/throwawayServices';
import { LOAD_RATE_LIMITS } from '../../stack/loadRateLimits';
import { startProcessStack } from '../../stack/processStack';
import { startStack } from '../../../processes/stack';
import { connectTemporal, type TemporalClient } from '../../../temporal/client';
import { taskQueuesOf } from '../../../temporal/taskQueues';

export { signUpOperator as benchOperator, post, supplierConnection } from '../../stack/stackClient';

export interface BenchStack {
  url: string;
  /** The in-process worker's pool. */
  db: Db;
  deps: AppDeps;
  /** Process ids of the servers the stack started, for CPU accounting (`tools/bench/lib/cpu.ts`). */
  pids: { node: number; postgres: number | undefined; temporal: number | undefined };
  databaseUrl: string;
  /** The Temporal server the stack runs on, for a benchmark's bare shapes (tools/bench/lib/bareTemporal.ts). */
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

/** How `bench:gateway` and `bench:mcp` run the platform: `one` process (default) or API and worker as `separate` ones. */
export type BenchProcesses = 'one' | 'separate';

export function benchProcesses(env: NodeJS.ProcessEnv = process.env): BenchProcesses {
  const value = env.BENCH_PROCESSES || 'one';
  if (value !== 'one' && value !== 'separate') throw new Error(`BENCH_PROCESSES=${value}: expected one or separate`);
  return value;
}

/** What the hot-path benchmarks need of the platform, whichever way it runs. */
export interface HotPathStack {
  processes: BenchProcesses;
  url: string;
  temporalAddress: string;
  namespace: string;
  keyring: Keyring;
  /** Set when the API and the worker run apart: the bare shapes' worker then runs apart too (tools/bench/lib/bareTemporal.ts). */
  workerProcess?: { dataEncryptionKey: string };
  /** A client into the platform's Temporal as its API has: the in-process worker's (eager starts), else one of its own. */
  temporal: TemporalClient;
  /** The processes whose CPU a benchmark reads (tools/bench/lib/cpu.ts), by name. */
  cpu: Record<string, { pid: number | undefined; tree: boolean }>;
  stop(): Promise<void>;
}

/**
 * The platform for `bench:gateway` and `bench:mcp`. `one`: this process runs the API and the worker beside the
 * load (startBenchStack). `separate`: the production shape (tools/stack/processStack.ts) — one API process and one
 * worker process, as `npm run cluster` runs them, this process only the load and the supplier.
 */
export async function startHotPathStack(env: Record<string, string>, log: (line: string) => void, processes = benchProcesses()): Promise<HotPathStack> {
  if (processes === 'one') {
    const stack = await startBenchStack(env, log);
    return {
      processes,
      url: stack.url,
      temporalAddress: stack.temporalAddress,
      namespace: stack.deps.config.TEMPORAL_NAMESPACE,
      keyring: stack.deps.keyring,
      temporal: stack.deps.temporal,
      cpu: {
        node: { pid: stack.pids.node, tree: false },
        postgres: { pid: stack.pids.postgres, tree: true },
        temporal: { pid: stack.pids.temporal, tree: true },
      },
      stop: stack.stop,
    };
  }
  // The dev server keeps its history in memory, as in the one-process stack, so the two ways differ only in processes.
  const stack = await startProcessStack({ LOG_LEVEL: 'error', DATABASE_POOL_MAX: '30', ...env }, log, { temporalFile: false });
  try {
    const api = await stack.spawnApi();
    const worker = await stack.spawnWorker();
    const config = loadConfig(stack.env);
    const dataEncryptionKey = stack.env.DATA_ENCRYPTION_KEY!;
    const keyring = new Keyring(parseDataKey(dataEncryptionKey), []);
    const client = await connectTemporal({
      address: stack.temporalAddress,
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueues: taskQueuesOf(config),
      keyring,
    });
    const { postgres, temporal } = stack.pids();
    return {
      processes,
      url: api.url,
      temporalAddress: stack.temporalAddress,
      namespace: config.TEMPORAL_NAMESPACE,
      keyring,
      workerProcess: { dataEncryptionKey },
      temporal: client,
      cpu: {
        load: { pid: process.pid, tree: false },
        api: { pid: api.pid, tree: false },
        worker: { pid: worker.pid, tree: false },
        postgres: { pid: postgres, tree: true },
        temporal: { pid: temporal, tree: true },
      },
      async stop() {
        await client.close();
        await stack.stop();
      },
    };
  } catch (error) {
    await stack.stop();
    throw error;
  }
}
