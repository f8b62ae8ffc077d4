import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** The pinned release of the official Python MCP SDK (PyPI `mcp`): the client the Python test drives. */
export const PYTHON_MCP_VERSION = '2.3.0';

const PYTHON = process.platform === 'win32' ? 'python' : 'python3';
const CLIENT_SCRIPT = path.join(__dirname, 'mcp_python_client.py');

/** Whether this machine has the Python 3.10+ the SDK needs (checked when a test file is loaded, to skip it otherwise). */
export const hasPython = (): boolean => spawnSync(PYTHON, ['-c', 'import sys; assert sys.version_info >= (3, 10)']).status === 0;

/**
 * A directory holding the pinned `mcp` and its dependencies, installed from PyPI with `pip install --target` into the
 * user's cache once per version (nothing system-wide, like the other tools of the stack).
 */
export async function ensurePythonMcp(cacheDir = path.join(os.homedir(), '.cache', 'operator-platform')): Promise<string> {
  const target = path.join(cacheDir, `python-mcp-${PYTHON_MCP_VERSION}`);
  if (existsSync(path.join(target, 'mcp', '__init__.py'))) return target;
  const partial = `${target}.partial-${process.pid}`;
  const pip = ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-warn-conflicts', '--target', partial, `mcp==${PYTHON_MCP_VERSION}`];
  await execFileAsync(PYTHON, pip, { timeout: 300_000 });
  await rename(partial, target).catch(async () => rm(partial, { recursive: true, force: true }));
  return target;
}

export interface PythonClientReport {
  protocolVersion: string;
  tools: string[];
  calls: Record<string, { isError: boolean; text: string | null }>;
}

/** Runs the Python client against the endpoint: it lists the tools and calls every one it is shown with `args`. */
export async function runPythonClient(sitePackages: string, url: string, key: string, mode: 'auto' | 'legacy', args: unknown): Promise<PythonClientReport> {
  const { stdout } = await execFileAsync(PYTHON, [CLIENT_SCRIPT, url, key, mode, JSON.stringify(args)], {
    env: { ...process.env, PYTHONPATH: sitePackages, PYTHONDONTWRITEBYTECODE: '1' },
    timeout: 120_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as PythonClientReport;
}
