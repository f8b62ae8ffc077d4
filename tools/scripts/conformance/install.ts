import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The pinned conformance suite: 0.2.0-alpha.12 is the first release with the 2026-07-28 and tasks-extension scenarios
 * (npm's `latest`, 0.1.x, knows 2025 only). Its scenarios, check ids and CLI options are what the expected-failures
 * file and `tools/scripts/conformance.ts` rely on: bump it deliberately, with a full run.
 */
export const CONFORMANCE_VERSION = '0.2.0-alpha.12';
/** The suite needs Node 22 or later (it calls `fs.globSync`); the registry's `node-<platform>-<arch>` package brings one. */
export const NODE_VERSION = '22.23.3';

/** The per-user cache, outside the repository, as for the Temporal CLI (devstack/temporalCli.ts) and Schemathesis. */
export function cacheRoot(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'operator-platform');
}

/** Runs a command with inherited stdio; resolves with its exit code. */
export function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', cwd: options.cwd, env: options.env ?? process.env });
    const timer = options.timeoutMs
      ? setTimeout(() => {
          process.stderr.write(`conformance: ${path.basename(command)} ran past ${options.timeoutMs} ms; stopping it\n`);
          child.kill('SIGTERM');
        }, options.timeoutMs)
      : undefined;
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

/**
 * `npm install` of exact packages into `dir`, once: into a staging directory first, renamed into place when complete,
 * so an interrupted install is never mistaken for a finished one. Lifecycle scripts are off (none is needed), and npm's
 * `npm run` variables are dropped so the nested npm cannot resolve the repository as its project.
 */
async function npmInstallOnce(dir: string, dependencies: Record<string, string>, done: string, log: (line: string) => void): Promise<void> {
  if (existsSync(path.join(dir, done))) return;
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify({ private: true, dependencies }, null, 2)}\n`);
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_(config_local_prefix|package_|lifecycle_)/i.test(name)));
  log(
    `installing ${Object.entries(dependencies)
      .map(([name, version]) => `${name}@${version}`)
      .join(', ')} into ${dir}`,
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const code = await run(npm, ['install', '--prefix', staging, '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: staging, env });
  if (code !== 0 || !existsSync(path.join(staging, done))) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`npm install into ${staging} failed (exit code ${code})`);
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
}

export interface ConformanceTools {
  /** A Node 22+ binary: this process's own when it is recent enough, else the registry's. */
  node: string;
  /** The suite's CLI entry, run as `node <cli> …`. */
  cli: string;
}

/**
 * Finds or installs Node 22 and the pinned conformance suite under `~/.cache/operator-platform`; only the npm registry
 * is reached.
 *
 * @example const { node, cli } = await ensureConformanceTools(console.log) // node …/node_modules/@modelcontextprotocol/conformance/dist/index.js list
 */
export async function ensureConformanceTools(log: (line: string) => void): Promise<ConformanceTools> {
  const suiteDir = path.join(cacheRoot(), `mcp-conformance-${CONFORMANCE_VERSION}`);
  const cli = path.join('node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
  await npmInstallOnce(suiteDir, { '@modelcontextprotocol/conformance': CONFORMANCE_VERSION }, cli, log);
  if (Number(process.versions.node.split('.')[0]) >= 22) return { node: process.execPath, cli: path.join(suiteDir, cli) };
  const nodePackage = `node-${process.platform}-${process.arch}`;
  const nodeDir = path.join(cacheRoot(), `${nodePackage}-${NODE_VERSION}`);
  const binary = path.join('node_modules', nodePackage, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  await npmInstallOnce(nodeDir, { [nodePackage]: NODE_VERSION }, binary, log);
  return { node: path.join(nodeDir, binary), cli: path.join(suiteDir, cli) };
}
