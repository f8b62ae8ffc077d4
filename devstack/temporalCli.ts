import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, renameSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const TEMPORAL_CLI_VERSION = 'v1.5.1';
const GO_PACKAGE = `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`;

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The per-user cache, outside the repository, so a fresh clone (and CI) reuses a binary built once. */
export function temporalCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'operator-platform', `temporal-${TEMPORAL_CLI_VERSION}`);
}

function onPath(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'temporal');
    if (dir && isExecutable(candidate)) return candidate;
  }
  return undefined;
}

async function goInstall(cacheDir: string, log: (line: string) => void): Promise<string | undefined> {
  try {
    await run('go', ['version']);
  } catch {
    return undefined;
  }
  log(`building the Temporal CLI ${TEMPORAL_CLI_VERSION} with go install (the first build takes 10+ minutes on 2 cores)…`);
  const staging = `${cacheDir}.partial`;
  mkdirSync(staging, { recursive: true });
  await run('go', ['install', GO_PACKAGE], { env: { ...process.env, GOBIN: staging }, maxBuffer: 64 * 1024 * 1024 });
  mkdirSync(cacheDir, { recursive: true });
  renameSync(path.join(staging, 'temporal'), path.join(cacheDir, 'temporal'));
  return path.join(cacheDir, 'temporal');
}

async function download(cacheDir: string, log: (line: string) => void): Promise<string> {
  const arch = process.arch === 'arm64' ? 'arm64' : 'amd64';
  const url = `https://temporal.download/cli/archive/${TEMPORAL_CLI_VERSION.slice(1)}?platform=${process.platform}&arch=${arch}`;
  log(`downloading the Temporal CLI from ${url}…`);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`download failed with HTTP ${response.status}`);
  mkdirSync(cacheDir, { recursive: true });
  const archive = path.join(cacheDir, 'temporal.tar.gz');
  const { writeFile } = await import('node:fs/promises');
  await writeFile(archive, Buffer.from(await response.arrayBuffer()));
  await run('tar', ['-xzf', archive, '-C', cacheDir, 'temporal']);
  return path.join(cacheDir, 'temporal');
}

/**
 * Finds the `temporal` CLI: `TEMPORAL_CLI_PATH`, then `temporal` on PATH, then the per-user cache, then
 * `go install` into that cache, and the official download only as a last resort.
 *
 * @example const binary = await findTemporalCli({ explicitPath: config.TEMPORAL_CLI_PATH, log: console.log })
 */
export async function findTemporalCli(options: { explicitPath?: string; log: (line: string) => void }): Promise<string> {
  if (options.explicitPath) {
    if (!isExecutable(options.explicitPath)) throw new Error(`TEMPORAL_CLI_PATH=${options.explicitPath} is not an executable file`);
    return options.explicitPath;
  }
  const fromPath = onPath();
  if (fromPath) return fromPath;
  const cacheDir = temporalCacheDir();
  const cached = path.join(cacheDir, 'temporal');
  if (existsSync(cached) && isExecutable(cached)) return cached;
  return (await goInstall(cacheDir, options.log)) ?? (await download(cacheDir, options.log));
}
