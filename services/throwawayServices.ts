import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { loadConfig } from '../core/config';
import { createDb } from '../db/knex';
import { migrateLatest } from '../db/migrate';
import { startEmbeddedPostgres } from './embeddedPostgres';
import { freePort } from './freePort';
import { findTemporalCli } from './temporalCli';
import { startTemporalDevServer, type TemporalDevServer, type TemporalDevServerOptions } from './temporalDevServer';

export interface ThrowawayServices {
  /** A fresh temp directory (mode 0755, so PostgreSQL's unprivileged user can enter it when we are root). */
  dir: string;
  databaseUrl: string;
  temporalAddress: string;
  pids(): { postgres: number | undefined; temporal: number | undefined };
  /** Stops PostgreSQL, waits `downMs`, starts it again on the same port and data. */
  restartPostgres(downMs?: number): Promise<void>;
  /** Stops the Temporal server, waits `downMs`, starts it again on the same port (and SQLite file, if any). */
  restartTemporal(downMs?: number): Promise<void>;
  /** Stops both servers and removes `dir`. */
  stop(): Promise<void>;
}

/**
 * Embedded PostgreSQL and a Temporal dev server in a temp directory on free loopback ports, for benchmarks and
 * fault runs. PostgreSQL runs without fsync (nothing here outlives the run); Temporal keeps its state in
 * `dir/temporal.sqlite` when `temporalFile` is set (a restart then keeps every workflow) and in memory otherwise.
 */
export async function startThrowawayServices(options: { temporalFile?: boolean; prefix?: string; temporalLogLevel?: TemporalDevServerOptions['logLevel']; log: (line: string) => void }): Promise<ThrowawayServices> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `operator-platform-${options.prefix ?? 'bench'}-`));
  chmodSync(dir, 0o755);
  const stops: Array<() => Promise<void>> = [async () => rmSync(dir, { recursive: true, force: true })];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch((error) => options.log(`stop: ${(error as Error).message}`));
    stops.length = 0;
  };
  try {
    const base = loadConfig();
    const [pgPort, temporalPort] = await Promise.all([freePort(), freePort()]);
    const binary = await findTemporalCli({ explicitPath: base.TEMPORAL_CLI_PATH, log: options.log });
    const temporalOptions: TemporalDevServerOptions = {
      binary, port: temporalPort, namespace: base.TEMPORAL_NAMESPACE, logLevel: options.temporalLogLevel ?? 'error', log: options.log,
      ...(options.temporalFile ? { dbFile: path.join(dir, 'temporal.sqlite') } : {}),
    };
    const [pg, firstTemporal] = await Promise.all([
      startEmbeddedPostgres({ dataDir: path.join(dir, 'postgres'), port: pgPort, persistent: true, durable: false, log: options.log }),
      startTemporalDevServer(temporalOptions),
    ]);
    let temporal: TemporalDevServer = firstTemporal;
    stops.push(pg.stop, () => temporal.stop());
    return {
      dir,
      databaseUrl: pg.databaseUrl,
      temporalAddress: temporal.address,
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

/** Applies migrations and writes the workflow bundle (`WORKFLOW_BUNDLE_PATH`) once, so each worker starts in seconds. */
export async function prepareForWorkers(services: Pick<ThrowawayServices, 'dir' | 'databaseUrl'>): Promise<{ bundlePath: string }> {
  const bundlePath = path.join(services.dir, 'workflow-bundle.js');
  const [, { code }] = await Promise.all([
    (async () => {
      const db = createDb(services.databaseUrl, { poolMax: 2 });
      await migrateLatest(db).finally(() => db.destroy());
    })(),
    bundleWorkflowCode({ workflowsPath: require.resolve('../workflows'), logger: new DefaultLogger('WARN') }),
  ]);
  writeFileSync(bundlePath, code);
  return { bundlePath };
}
