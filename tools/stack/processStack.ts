import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../../devstack/freePort';
import { startThrowawayServices } from './throwawayServices';
import { LOAD_RATE_LIMITS } from './loadRateLimits';
import { startStack } from '../../processes/stack';

export interface PlatformProcess {
  pid: number;
  /** Resolves with the exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** Sends `signal` (SIGTERM by default) and resolves once the process is gone; SIGKILL after 25 s. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface ApiProcess extends PlatformProcess {
  url: string;
}

export interface ProcessStack {
  databaseUrl: string;
  temporalAddress: string;
  dataDir: string;
  /** Env every spawned API/worker gets (DATABASE_URL, TEMPORAL_ADDRESS, keys, task queue, …). */
  env: Record<string, string>;
  /**
   * `node --import tsx processes/api.ts` on a free port (or `extraEnv.PORT`, e.g. the port of the API it replaces); resolves
   * once `/healthz` answers 200. Output in `dataDir/api-<n>.log`.
   */
  spawnApi(extraEnv?: Record<string, string>): Promise<ApiProcess>;
  /** `node --import tsx processes/worker.ts`; resolves once it prints "worker ready". Output in `dataDir/worker-<n>.log`. */
  spawnWorker(extraEnv?: Record<string, string>): Promise<PlatformProcess>;
  /** PostgreSQL's and the Temporal server's process ids, for CPU accounting. */
  pids(): { postgres: number | undefined; temporal: number | undefined };
  restartPostgres(downMs?: number): Promise<void>;
  /** Same port and SQLite file, so every workflow survives. */
  restartTemporal(downMs?: number): Promise<void>;
  /** Ends every live child, stops the servers and removes `dataDir`. */
  stop(): Promise<void>;
}

const ROOT = path.resolve(__dirname, '../..');
const READY_TIMEOUT_MS = 90_000;

function platformProcess(child: ChildProcess): PlatformProcess {
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
  return {
    pid: child.pid!,
    exited,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const force = setTimeout(() => child.kill('SIGKILL'), 25_000);
      await exited;
      clearTimeout(force);
    },
  };
}

async function waitFor(ready: () => Promise<boolean>, child: ChildProcess, what: string, logFile: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    if (await ready().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  const tail = readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n');
  throw new Error(`${what} did not become ready (exit ${child.exitCode ?? child.signalCode ?? 'none'}); last lines of ${logFile}:\n${tail}`);
}

/**
 * A throw-away platform whose API and worker are separate OS processes, so a fault run can SIGKILL one of them
 * and a soak run can read each one's RSS: embedded PostgreSQL and a file-backed Temporal dev server (both
 * restartable), migrations and the workflow bundle prepared once, then as many APIs and workers as asked for.
 */
export async function startProcessStack(
  env: Record<string, string> = {},
  log: (line: string) => void = () => undefined,
  /** `temporalFile: false` keeps the dev server's history in memory (benchmarks; `restartTemporal` then loses it). */
  options: { temporalLogLevel?: 'debug' | 'info' | 'warn' | 'error'; temporalFile?: boolean } = {},
): Promise<ProcessStack> {
  const stack = await startStack({
    services: (config, serviceLog) => startThrowawayServices(config, serviceLog, { temporalFile: true, prefix: 'processes', ...options }),
    api: false,
    worker: false,
    bundle: true,
    log,
  });
  const { services } = stack;
  const children = new Set<ChildProcess>();
  const killAll = () => {
    for (const child of children) child.kill('SIGKILL');
  };
  process.once('exit', killAll);
  try {
    const stackEnv: Record<string, string> = {
      DATABASE_URL: services.databaseUrl,
      TEMPORAL_ADDRESS: services.temporalAddress,
      DATA_DIR: services.dir,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      TEMPORAL_TASK_QUEUE: 'bench',
      ...(stack.bundlePath ? { WORKFLOW_BUNDLE_PATH: stack.bundlePath } : {}),
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      JWT_SECRET: randomBytes(32).toString('hex'),
      ...LOAD_RATE_LIMITS,
      ...env,
    };
    let spawned = 0;
    const start = (kind: 'api' | 'worker', extraEnv: Record<string, string>) => {
      const logFile = path.join(services.dir, `${kind}-${++spawned}.log`);
      const fd = openSync(logFile, 'a');
      // PROCESS_PROFILE_DIR: each process writes a V8 CPU profile there when it exits (a chaos or soak run to profile).
      const profile = process.env.PROCESS_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROCESS_PROFILE_DIR}`] : [];
      const child = spawn(process.execPath, [...profile, '--import', 'tsx', `processes/${kind}.ts`], {
        cwd: ROOT,
        env: { ...process.env, ...stackEnv, ...extraEnv },
        stdio: ['ignore', fd, fd],
      });
      closeSync(fd);
      children.add(child);
      child.once('exit', () => children.delete(child));
      return { child, logFile };
    };
    return {
      databaseUrl: services.databaseUrl,
      temporalAddress: services.temporalAddress,
      dataDir: services.dir,
      env: stackEnv,
      async spawnApi(extraEnv = {}) {
        const port = extraEnv.PORT ?? String(await freePort());
        const { child, logFile } = start('api', { ...extraEnv, PORT: port });
        const url = `http://127.0.0.1:${port}`;
        await waitFor(async () => (await fetch(`${url}/healthz`)).status === 200, child, 'API', logFile);
        log(`api pid ${child.pid} at ${url}`);
        return { ...platformProcess(child), url };
      },
      async spawnWorker(extraEnv = {}) {
        const { child, logFile } = start('worker', extraEnv);
        await waitFor(async () => readFileSync(logFile, 'utf8').includes('worker ready'), child, 'worker', logFile);
        log(`worker pid ${child.pid}`);
        return platformProcess(child);
      },
      pids: () => services.pids(),
      restartPostgres: services.restartPostgres,
      restartTemporal: services.restartTemporal,
      async stop() {
        await Promise.all([...children].map((child) => platformProcess(child).kill('SIGTERM')));
        process.removeListener('exit', killAll);
        await stack.close();
      },
    };
  } catch (error) {
    killAll();
    process.removeListener('exit', killAll);
    await stack.close();
    throw error;
  }
}
