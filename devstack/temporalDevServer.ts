import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { parse } from 'yaml';
import { stopChild } from './childProcess';

export interface TemporalDevServer {
  address: string;
  uiUrl: string | null;
  pid: number | undefined;
  stop(): Promise<void>;
}

export interface TemporalDevServerOptions {
  binary: string;
  port: number;
  uiPort?: number;
  /** SQLite file for persistent state; in memory when omitted (tests). */
  dbFile?: string;
  namespace: string;
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /** The Web UI's remote codec (`--ui-codec-endpoint`): the API's `/temporal-codec`, so an Owner reads sealed payloads there. */
  uiCodecEndpoint?: string;
  /** Leave out `deploy/temporal-dynamic-config.yaml` (only `bench:temporal`, to time the server's own defaults). */
  serverDefaults?: boolean;
  log: (line: string) => void;
}

/** A server that exited while starting, with its last lines of stderr (a port taken since it was found free, say). */
export class TemporalStartError extends Error {}

async function waitUntilReady(address: string, namespace: string, child: ChildProcess, timeoutMs: number, stderrTail: string[]): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new TemporalStartError(`temporal server exited with code ${child.exitCode}: ${stderrTail.join(' | ')}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`temporal server not ready after ${timeoutMs} ms: ${(lastError as Error)?.message}`);
}

/** `deploy/temporal-dynamic-config.yaml`, the production server's file, as `--dynamic-config-value` pairs. */
export function dynamicConfigArgs(): string[] {
  const file = [path.resolve(__dirname, '../deploy/temporal-dynamic-config.yaml'), path.resolve(__dirname, '../../deploy/temporal-dynamic-config.yaml')].find(
    existsSync,
  );
  if (!file) throw new Error('deploy/temporal-dynamic-config.yaml not found');
  const settings = parse(readFileSync(file, 'utf8')) as Record<string, Array<{ value: unknown }>>;
  return Object.entries(settings).flatMap(([key, [entry]]) => ['--dynamic-config-value', `${key}=${JSON.stringify(entry?.value)}`]);
}

/**
 * Starts `temporal server start-dev` (a real Temporal server with an embedded SQLite store) and waits
 * until its namespace answers. `stop()` terminates it; the child also dies with this process.
 */
export async function startTemporalDevServer(options: TemporalDevServerOptions): Promise<TemporalDevServer> {
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--namespace',
    options.namespace,
    '--log-level',
    options.logLevel ?? 'warn',
  ];
  if (!options.serverDefaults) args.push(...dynamicConfigArgs());
  if (options.uiPort) args.push('--ui-port', String(options.uiPort));
  else args.push('--headless');
  if (options.uiPort && options.uiCodecEndpoint) args.push('--ui-codec-endpoint', options.uiCodecEndpoint);
  // A file-backed store syncs every commit by default; WAL with NORMAL sync survives a crash of the server and
  // costs one sync per checkpoint instead (a one-activity workflow: ~60 → ~35 ms here).
  if (options.dbFile) args.push('--db-filename', options.dbFile, '--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal');
  const child = spawn(options.binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const stderrTail: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      options.log(`[temporal] ${line.trim()}`);
      stderrTail.push(line.trim().slice(0, 500));
      if (stderrTail.length > 5) stderrTail.shift();
    }
  });
  const address = `127.0.0.1:${options.port}`;
  try {
    await waitUntilReady(address, options.namespace, child, 60_000, stderrTail);
  } catch (error) {
    await stopChild(child, 10_000);
    throw error;
  }
  return {
    address,
    uiUrl: options.uiPort ? `http://127.0.0.1:${options.uiPort}` : null,
    pid: child.pid,
    stop: () => stopChild(child, 10_000),
  };
}
