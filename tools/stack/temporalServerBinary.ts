import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const TEMPORAL_SERVER_VERSION = 'v1.29.1';
/** The Web UI server the Temporal CLI v1.5.1 embeds in its dev server. */
export const TEMPORAL_UI_VERSION = 'v2.42.1';
const MODULE = 'go.temporal.io/server';
const PROGRESS_EVERY_MS = 15_000;

/** The server, its SQL schema tool, the Web UI server and the PostgreSQL schema files, side by side. */
export interface TemporalServerBinaries {
  server: string;
  sqlTool: string;
  ui: string;
  /** `…/schema/postgresql/v12`, holding `temporal/versioned` and `visibility/versioned`. */
  schemaDir: string;
}

/** Beside the CLI's cache (`temporalCli.ts`), so a fresh clone and CI reuse what was built once. */
export function temporalServerCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'operator-platform', `temporal-server-${TEMPORAL_SERVER_VERSION}`);
}

function binariesIn(dir: string): TemporalServerBinaries {
  return {
    server: path.join(dir, 'temporal-server'),
    sqlTool: path.join(dir, 'temporal-sql-tool'),
    ui: path.join(dir, 'temporal-ui-server'),
    schemaDir: path.join(dir, 'schema', 'postgresql', 'v12'),
  };
}

function isComplete(binaries: TemporalServerBinaries): boolean {
  return (
    existsSync(binaries.server) && existsSync(binaries.sqlTool) && existsSync(binaries.ui) && existsSync(path.join(binaries.schemaDir, 'temporal', 'versioned'))
  );
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid in the lock file; a file without one yet is `being written` for its first 10 s, then taken for abandoned. */
function lockHolder(lockFile: string): number | 'being written' | 'gone' {
  try {
    const pid = Number.parseInt(readFileSync(lockFile, 'utf8'), 10);
    if (Number.isNaN(pid) && Date.now() - statSync(lockFile).mtimeMs < 10_000) return 'being written';
    return pid;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
}

/**
 * An exclusive lock file holding the builder's pid, so two processes (a test run and `npm run cluster`) never run
 * the same 10-minute build at once; a lock whose process is gone is taken over.
 */
async function withBuildLock<T>(lockFile: string, log: (line: string) => void, body: () => Promise<T>): Promise<T> {
  let announced = false;
  for (;;) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = lockHolder(lockFile);
      if (holder === 'gone') continue;
      if (holder === 'being written' || (holder !== process.pid && processAlive(holder))) {
        if (!announced) log(`waiting for the Temporal server build of process ${holder} (${lockFile})…`);
        announced = true;
        await new Promise((resolve) => setTimeout(resolve, 2000));
      } else {
        rmSync(lockFile, { force: true });
      }
    }
  }
  try {
    return await body();
  } finally {
    rmSync(lockFile, { force: true });
  }
}

/** `go install -v` of one package into `gobin`, reporting how many packages it has compiled every 15 s. */
function goInstall(target: string, gobin: string, log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('go', ['install', '-v', target], { env: { ...process.env, GOBIN: gobin }, stdio: ['ignore', 'ignore', 'pipe'] });
    let compiled = 0;
    let tail: string[] = [];
    child.stderr.on('data', (chunk: Buffer) => {
      const lines = chunk.toString('utf8').split('\n').filter(Boolean);
      compiled += lines.filter((line) => !line.startsWith('go: ')).length;
      tail = [...tail, ...lines].slice(-20);
    });
    const progress = setInterval(() => log(`  ${target}: ${compiled} packages compiled…`), PROGRESS_EVERY_MS);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearInterval(progress);
      if (code === 0) resolve();
      else reject(new Error(`go install ${target} exited with ${code}:\n${tail.join('\n')}`));
    });
  });
}

async function build(cacheDir: string, log: (line: string) => void): Promise<void> {
  const staging = `${cacheDir}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const started = Date.now();
  log(`building the Temporal server ${TEMPORAL_SERVER_VERSION} with go install (10+ minutes on 2 cores without a warm Go build cache)…`);
  await goInstall(`${MODULE}/cmd/server@${TEMPORAL_SERVER_VERSION}`, staging, log);
  await goInstall(`${MODULE}/cmd/tools/sql@${TEMPORAL_SERVER_VERSION}`, staging, log);
  renameSync(path.join(staging, 'server'), path.join(staging, 'temporal-server'));
  renameSync(path.join(staging, 'sql'), path.join(staging, 'temporal-sql-tool'));
  await goInstall(`github.com/temporalio/ui-server/v2/cmd/server@${TEMPORAL_UI_VERSION}`, staging, log);
  renameSync(path.join(staging, 'server'), path.join(staging, 'temporal-ui-server'));
  const { stdout } = await run('go', ['env', 'GOMODCACHE']);
  const moduleSchema = path.join(stdout.trim(), `${MODULE}@${TEMPORAL_SERVER_VERSION}`, 'schema', 'postgresql', 'v12');
  cpSync(moduleSchema, binariesIn(staging).schemaDir, { recursive: true });
  rmSync(cacheDir, { recursive: true, force: true });
  renameSync(staging, cacheDir);
  log(`built the Temporal server in ${Math.round((Date.now() - started) / 1000)} s (cached in ${cacheDir})`);
}

/**
 * The Temporal server and its SQL schema tool from the per-user cache, built there first with `go install` from the
 * Go module proxy when missing; the schema files are copied from the module cache next to them, so the cache stays
 * usable after `go clean -modcache`.
 *
 * @example const { server, sqlTool, schemaDir } = await findTemporalServer(console.log)
 */
export async function findTemporalServer(log: (line: string) => void): Promise<TemporalServerBinaries> {
  const cacheDir = temporalServerCacheDir();
  const binaries = binariesIn(cacheDir);
  if (isComplete(binaries)) return binaries;
  try {
    await run('go', ['version']);
  } catch {
    throw new Error(`the Temporal server is not in ${cacheDir} and building it needs Go (https://go.dev/dl/) on PATH`);
  }
  mkdirSync(path.dirname(cacheDir), { recursive: true });
  await withBuildLock(`${cacheDir}.lock`, log, async () => {
    if (!isComplete(binaries)) await build(cacheDir, log);
  });
  return binaries;
}
