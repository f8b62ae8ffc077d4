import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../../core/config';
import { platformTopology, startClusterServices } from './cluster';
import type { DevServices } from '../../devstack/devServices';
import { PostgresStartError, startEmbeddedPostgres } from '../../devstack/embeddedPostgres';
import { freePort } from '../../devstack/freePort';
import { findTemporalCli } from '../../devstack/temporalCli';
import { startTemporalDevServer, type TemporalDevServer, type TemporalDevServerOptions } from '../../devstack/temporalDevServer';

export interface ThrowawayServices extends DevServices {
  /** A fresh temp directory (mode 0755, so PostgreSQL's unprivileged user can enter it when we are root). */
  dir: string;
  pids(): { postgres: number | undefined; temporal: number | undefined };
  /** Stops PostgreSQL, waits `downMs`, starts it again on the same port and data. */
  restartPostgres(downMs?: number): Promise<void>;
  /** Stops the Temporal server, waits `downMs`, starts it again on the same port (and SQLite file, if any). */
  restartTemporal(downMs?: number): Promise<void>;
  /** Stops both servers and removes `dir`. */
  stop(): Promise<void>;
}

export interface ThrowawayOptions {
  /** Keep Temporal's state in `dir/temporal.sqlite`, so a restart keeps every workflow (in memory otherwise). */
  temporalFile?: boolean;
  /** The temp directory's name: `operator-platform-<prefix>-…`. */
  prefix?: string;
  temporalLogLevel?: TemporalDevServerOptions['logLevel'];
}

/**
 * Embedded PostgreSQL and a Temporal dev server in a temp directory on free loopback ports, for tests, benchmarks
 * and fault runs. PostgreSQL runs without fsync (nothing here outlives the run). `config` gives the Temporal CLI
 * and namespace. `PLATFORM_TOPOLOGY=cluster` puts the Temporal server on that PostgreSQL instead (tools/stack/cluster.ts).
 */
export async function startThrowawayServices(config: Config, log: (line: string) => void, options: ThrowawayOptions = {}): Promise<ThrowawayServices> {
  if (platformTopology() === 'cluster')
    return startClusterServices(config, log, { prefix: options.prefix ?? 'bench', temporalLogLevel: options.temporalLogLevel });
  const dir = mkdtempSync(path.join(os.tmpdir(), `operator-platform-${options.prefix ?? 'bench'}-`));
  chmodSync(dir, 0o755);
  const stops: Array<() => Promise<void>> = [async () => rmSync(dir, { recursive: true, force: true })];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch((error) => log(`stop: ${(error as Error).message}`));
    stops.length = 0;
  };
  try {
    const [pgPort, temporalPort] = await Promise.all([freePort(), freePort()]);
    const binary = await findTemporalCli({ explicitPath: config.TEMPORAL_CLI_PATH, log });
    const temporalOptions: TemporalDevServerOptions = {
      binary,
      port: temporalPort,
      namespace: config.TEMPORAL_NAMESPACE,
      logLevel: options.temporalLogLevel ?? 'error',
      log,
      ...(options.temporalFile ? { dbFile: path.join(dir, 'temporal.sqlite') } : {}),
    };
    const [pg, firstTemporal] = await Promise.all([
      startEmbeddedPostgres({ dataDir: path.join(dir, 'postgres'), port: pgPort, persistent: true, durable: false, log }).catch(async (error: unknown) => {
        // A throw-away server may take any port: when another process bound this one first, try once on a new one.
        if (!(error instanceof PostgresStartError)) throw error;
        log(`${error.message}; starting it on another port`);
        return startEmbeddedPostgres({ dataDir: path.join(dir, 'postgres'), port: await freePort(), persistent: true, durable: false, log });
      }),
      startTemporalDevServer(temporalOptions),
    ]);
    let temporal: TemporalDevServer = firstTemporal;
    stops.push(pg.stop, () => temporal.stop());
    return {
      dir,
      databaseUrl: pg.databaseUrl,
      temporalAddress: temporal.address,
      temporalUiUrl: null,
      pids: () => ({ postgres: pg.pid(), temporal: temporal.pid }),
      restartPostgres: (downMs) => pg.restart(downMs),
      async restartTemporal(downMs = 0) {
        await temporal.stop();
        await new Promise((resolve) => setTimeout(resolve, downMs));
        temporal = await startTemporalDevServer(temporalOptions);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
