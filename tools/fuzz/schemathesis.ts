import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The pinned Schemathesis release: its CLI options and report formats are what `runSchemathesis` relies on. */
export const SCHEMATHESIS_VERSION = '4.32.5';

/** Runs a command with inherited stdio; resolves with its exit code. */
export function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', ...options });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/**
 * Installs the pinned Schemathesis from PyPI into a virtualenv under the user's cache, once per
 * version (the machines reach PyPI but nothing else; nothing is installed system-wide), and returns
 * the path of its `schemathesis` executable.
 *
 * @example const cli = await ensureSchemathesis(console.log) // ~/.cache/operator-platform/schemathesis-4.32.5/bin/schemathesis
 */
export async function ensureSchemathesis(log: (line: string) => void, cacheDir = path.join(os.homedir(), '.cache', 'operator-platform')): Promise<string> {
  const venv = path.join(cacheDir, `schemathesis-${SCHEMATHESIS_VERSION}`);
  const cli = path.join(venv, 'bin', 'schemathesis');
  if (existsSync(cli)) return cli;
  const python = process.platform === 'win32' ? 'python' : 'python3';
  log(`installing schemathesis ${SCHEMATHESIS_VERSION} into ${venv}`);
  if ((await run(python, ['-m', 'venv', venv])) !== 0) throw new Error(`${python} -m venv failed: is Python 3.9+ with the venv module installed?`);
  const pip = path.join(venv, 'bin', 'pip');
  if ((await run(pip, ['install', '--quiet', '--disable-pip-version-check', `schemathesis==${SCHEMATHESIS_VERSION}`])) !== 0 || !existsSync(cli)) {
    throw new Error(`pip install schemathesis==${SCHEMATHESIS_VERSION} failed`);
  }
  return cli;
}
