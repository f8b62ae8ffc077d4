import '../core/tracingPreload';
import path from 'node:path';
import type { AppDeps } from '../api/deps';
import { loadConfig, type Config } from '../core/config';
import { createLogger } from '../core/logger';
import { startTracing } from '../core/tracing';
import { createDb, type Db } from '../db/knex';
import { migrateLatest } from '../db/migrate';
import type { DevServices } from '../devstack/devServices';
import type { TemporalClient } from '../temporal/client';
import { ensurePlatformSchedules } from '../temporal/platformSchedules';
import { createWorker } from '../worker/worker';
import { startApiServer } from './apiServer';
import { buildAppDeps } from './appDeps';
import { resolveKeyring } from './devSecrets';
import { writeWorkflowBundle } from './workflowBundle';

export interface StackOptions<S extends DevServices, A extends boolean, W extends boolean> {
  /** Brings up PostgreSQL and Temporal: `startLocalStack` for `npm start`, `startThrowawayServices` for the rest. */
  services(config: Config, log: (line: string) => void): Promise<S>;
  /** Configuration over the environment; the services' addresses (and temp directory) take precedence. */
  env?: Record<string, string | undefined>;
  /** Serve the API on HOST:PORT (default true). */
  api?: A;
  /**
   * Run a worker in this process (default true). The API then starts workflows through the worker's own
   * connection, so Temporal hands the first workflow task straight back to it (an eager start) instead of
   * through the task queue: the benchmarks' run-start figures depend on it.
   */
  worker?: W;
  /** Write the workflow bundle next to the services' data and set WORKFLOW_BUNDLE_PATH, so workers spawned later start in seconds. */
  bundle?: boolean;
  /** Create the platform's Temporal Schedules, as the production API does at every start. */
  schedules?: boolean;
  /** Size of the worker's and of the API's database pool (each its own); DATABASE_POOL_MAX by default. */
  poolMax?: number;
  /** Fields on every log line of the in-process worker and API. */
  logBindings?: Record<string, unknown>;
  /** Progress lines of the services (starting, building the Temporal CLI) and failures while stopping. */
  log?: (line: string) => void;
  /** Aborting stops a start in progress: what is up by then is stopped and the start rejects. */
  signal?: AbortSignal;
}

export interface StackApi {
  url: string;
  /** The metrics listener's `/metrics` URL, when METRICS_PORT is set. */
  metricsUrl?: string;
  deps: AppDeps;
}

export interface Stack<S extends DevServices, A extends boolean = true, W extends boolean = true> {
  /** The configuration the API and the worker run with. */
  config: Config;
  services: S;
  /** Where `bundle` wrote the workflow bundle. */
  bundlePath: string | undefined;
  /** The migrations this start applied. */
  migrations: string[];
  api: A extends false ? undefined : StackApi;
  /** The in-process worker's database pool. */
  db: W extends false ? undefined : Db;
  /** Stops, in reverse order, everything the start brought up. */
  close(): Promise<void>;
}

async function migrate(databaseUrl: string): Promise<string[]> {
  const db = createDb(databaseUrl, { poolMax: 2 });
  try {
    return await migrateLatest(db);
  } finally {
    await db.destroy();
  }
}

/**
 * The one place a whole platform comes up in one process — for `npm start`, jest's test services, the benchmarks
 * and the fuzz run, and (without API and worker) the separate-process stack of the fault runs: PostgreSQL and
 * Temporal, the migrations, optionally the workflow bundle, a worker and the API. On a failed or aborted start
 * everything already up is stopped before the promise rejects.
 *
 * @example const stack = await startStack({ services: startThrowawayServices, env: { PORT: '0' } }); … await stack.close();
 */
export async function startStack<S extends DevServices, A extends boolean = true, W extends boolean = true>(
  options: StackOptions<S, A, W>,
): Promise<Stack<S, A, W>> {
  const log = options.log ?? (() => undefined);
  if (options.api !== false || options.worker !== false) startTracing('operator-platform');
  const base = loadConfig(options.env ?? {});
  const services = await options.services(base, log);
  const stops: Array<() => Promise<void>> = [() => services.stop()];
  const close = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch((error) => log(`stop failed: ${(error as Error).message}`));
  };
  try {
    options.signal?.throwIfAborted();
    const bundlePath = options.bundle ? path.join(services.dir ?? base.DATA_DIR, 'workflow-bundle.js') : undefined;
    const [migrations] = await Promise.all([migrate(services.databaseUrl), bundlePath ? writeWorkflowBundle(bundlePath) : undefined]);
    const config = loadConfig({
      ...options.env,
      DATABASE_URL: services.databaseUrl,
      TEMPORAL_ADDRESS: services.temporalAddress,
      TEMPORAL_UI_URL: base.TEMPORAL_UI_URL ?? services.temporalUiUrl ?? undefined,
      ...(services.dir ? { DATA_DIR: services.dir } : {}),
      ...(bundlePath ? { WORKFLOW_BUNDLE_PATH: bundlePath } : {}),
    });
    const logger = createLogger(config.LOG_LEVEL, options.logBindings);
    const poolMax = options.poolMax ?? config.DATABASE_POOL_MAX;
    let db: Db | undefined;
    let workerClient: TemporalClient | undefined;
    if (options.worker !== false) {
      options.signal?.throwIfAborted();
      const workerDb = createDb(services.databaseUrl, { poolMax, applicationName: 'operator-platform-worker' });
      stops.push(() => workerDb.destroy());
      const {
        worker,
        temporal,
        close: closeWorker,
      } = await createWorker({
        config,
        db: workerDb,
        logger,
        address: services.temporalAddress,
        databaseUrl: services.databaseUrl,
        keyring: resolveKeyring(config),
      });
      const running = worker.run();
      stops.push(async () => {
        if (worker.getState() === 'RUNNING') worker.shutdown();
        await running;
        await closeWorker();
      });
      db = workerDb;
      workerClient = temporal;
    }
    let api: StackApi | undefined;
    if (options.api !== false) {
      options.signal?.throwIfAborted();
      const apiDb = createDb(services.databaseUrl, { poolMax, applicationName: 'operator-platform-api' });
      stops.push(() => apiDb.destroy());
      const deps = await buildAppDeps(config, logger, apiDb, workerClient);
      if (options.schedules) await ensurePlatformSchedules(deps.temporal);
      const server = await startApiServer(deps, { closeDb: false });
      stops.push(server.close);
      api = { url: server.url, ...(server.metricsUrl ? { metricsUrl: server.metricsUrl } : {}), deps };
    }
    return {
      config,
      services,
      bundlePath,
      migrations,
      api: api as Stack<S, A, W>['api'],
      db: db as Stack<S, A, W>['db'],
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
