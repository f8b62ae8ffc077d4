import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** The MCP Inspector release the README's command names (`npx -y @modelcontextprotocol/inspector@…`). */
export const INSPECTOR_VERSION = '2.12.0';

/**
 * The launcher of the README's Inspector, installed from the npm registry into the user's cache once per version —
 * outside the repository, as `npx -y` would from any folder, so the repository's own `node_modules` play no part.
 */
export async function ensureInspector(cacheDir = path.join(os.homedir(), '.cache', 'operator-platform')): Promise<string> {
  const target = path.join(cacheDir, `mcp-inspector-${INSPECTOR_VERSION}`);
  const launcher = path.join(target, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
  if (existsSync(launcher)) return launcher;
  const partial = `${target}.partial-${process.pid}`;
  mkdirSync(partial, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const install = [
    'install',
    '--prefix',
    partial,
    '--no-save',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    `@modelcontextprotocol/inspector@${INSPECTOR_VERSION}`,
  ];
  await execFileAsync(npm, install, { timeout: 300_000, cwd: partial });
  await rename(partial, target).catch(async () => rm(partial, { recursive: true, force: true }));
  return launcher;
}

/** Runs the Inspector's CLI from the system's temporary folder, as the README's command does from anywhere. */
export async function runInspectorAnywhere(launcher: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return execFileAsync(process.execPath, [launcher, '--cli', ...args], { cwd: os.tmpdir(), timeout: 90_000, env: { ...process.env, NODE_NO_WARNINGS: '1' } });
}
