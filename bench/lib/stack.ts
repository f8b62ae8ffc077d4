import type { AppDeps } from '../../api/deps';
import { loadConfig } from '../../core/config';
import { createLogger } from '../../core/logger';
import { createDb, type Db } from '../../db/knex';
import { migrateLatest } from '../../db/migrate';
import { buildAppDeps, startApiServer } from '../../services/runtime';
import { startThrowawayServices } from '../../services/throwawayServices';
import { createWorker } from '../../worker/worker';

/** Rate limits high enough that a benchmark or fault run measures the platform, not its refusals. */
export const BENCH_LIMITS = {
  RATE_LIMIT_AUTH: '1000000', RATE_LIMIT_INGEST_REALTIME: '100000000', RATE_LIMIT_INGEST_BATCH: '1000000', RATE_LIMIT_GATEWAY_EXECUTE: '100000000',
};

export interface BenchStack {
  url: string;
  db: Db;
  deps: AppDeps;
  /** Process ids of the servers the stack started, for CPU accounting (`bench/lib/cpu.ts`). */
  pids: { node: number; postgres: number | undefined; temporal: number | undefined };
  databaseUrl: string;
  stop(): Promise<void>;
}

/**
 * A complete throw-away platform for a benchmark: embedded PostgreSQL and a Temporal dev server in a
 * temp directory, migrations, an in-process worker and the API on a loopback port. `env` overrides
 * configuration (rate limits, chunk sizes).
 */
export async function startBenchStack(env: Record<string, string> = {}, log: (line: string) => void = () => undefined): Promise<BenchStack> {
  const services = await startThrowawayServices({ log });
  const stops: Array<() => Promise<void>> = [services.stop];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch((error) => log(`stop: ${(error as Error).message}`));
  };
  try {
    const { dir, databaseUrl } = services;
    const config = loadConfig({
      DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: services.temporalAddress, DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1',
      LOG_LEVEL: 'error', TEMPORAL_TASK_QUEUE: 'bench', ...BENCH_LIMITS, ...env,
    });
    const logger = createLogger('error');
    const db = createDb(databaseUrl, { poolMax: 30 });
    await migrateLatest(db);
    const { worker, temporal: temporalClient, close } = await createWorker({ config, db, logger, address: services.temporalAddress, databaseUrl });
    const running = worker.run();
    stops.push(async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await close();
    });
    const deps = await buildAppDeps(config, logger, createDb(databaseUrl, { poolMax: 30 }), temporalClient);
    const api = await startApiServer(deps);
    stops.push(async () => {
      await api.close();
      await db.destroy();
    });
    const pids = { node: process.pid, ...services.pids() };
    return { url: api.url, db, deps, pids, databaseUrl, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Signs up an operator and returns its id, session token and a fresh API key. */
export async function benchOperator(url: string): Promise<{ operatorId: string; accessToken: string; apiKey: string }> {
  const email = `bench-${Date.now()}-${Math.random().toString(16).slice(2)}@example.test`;
  const signup = await post(url, '/auth/v1/signup', { email, password: 'bench-password', organisationName: 'Bench' });
  const operatorId = signup.data.operator.id as string;
  const accessToken = signup.data.session.access_token as string;
  const key = await post(url, '/api-keys', { operatorId, label: 'bench' }, accessToken);
  return { operatorId, accessToken, apiKey: key.data.key as string };
}

/** POST JSON and return the parsed body; throws on a non-2xx answer. */
export async function post(url: string, path: string, body: unknown, token?: string, method = 'POST'): Promise<any> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}
