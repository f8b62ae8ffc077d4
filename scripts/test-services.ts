/**
 * Test services for jest's global setup, in their own process so native and ESM-only packages stay out
 * of jest: a throw-away embedded PostgreSQL, an in-memory `temporal server start-dev`, migrations, the
 * prebuilt workflow bundle, and one shared worker. Prints one JSON line with the addresses, then runs
 * until stdin closes or SIGTERM arrives, and removes everything it made.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { loadConfig } from '../core/config';
import { createLogger } from '../core/logger';
import { createDb } from '../db/knex';
import { migrateLatest } from '../db/migrate';
import { startEmbeddedPostgres } from '../services/embeddedPostgres';
import { freePort } from '../services/freePort';
import { findTemporalCli } from '../services/temporalCli';
import { startTemporalDevServer } from '../services/temporalDevServer';
import { FAILURE_CONVERTER_PATH } from '../temporal/dataConverter';
import { createWorker } from '../worker/worker';

const SHARED_TASK_QUEUE = 'test-shared';

async function main(): Promise<void> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const base = loadConfig();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'operator-platform-test-'));
  chmodSync(dir, 0o755); // embedded PostgreSQL runs as the unprivileged `postgres` user when we are root
  const cleanups: Array<() => Promise<void>> = [async () => rmSync(dir, { recursive: true, force: true })];
  const shutdown = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => log(`cleanup: ${(error as Error).message}`));
    process.exit(0);
  };
  process.stdin.on('end', () => void shutdown());
  process.stdin.resume();
  process.on('SIGTERM', () => void shutdown());

  const [pgPort, temporalPort] = await Promise.all([freePort(), freePort()]);
  const binary = await findTemporalCli({ explicitPath: base.TEMPORAL_CLI_PATH, log });
  const [pg, temporal] = await Promise.all([
    startEmbeddedPostgres({ dataDir: path.join(dir, 'postgres'), port: pgPort, persistent: false, log }),
    startTemporalDevServer({ binary, port: temporalPort, namespace: base.TEMPORAL_NAMESPACE, logLevel: 'error', log }),
  ]);
  cleanups.push(pg.stop, temporal.stop);

  const bundlePath = path.join(dir, 'workflow-bundle.js');
  const [, { code }] = await Promise.all([
    (async () => {
      const db = createDb(pg.databaseUrl, { poolMax: 2 });
      await migrateLatest(db);
      await db.destroy();
    })(),
    bundleWorkflowCode({ workflowsPath: require.resolve('../workflows'), failureConverterPath: FAILURE_CONVERTER_PATH, logger: new DefaultLogger('WARN') }),
  ]);
  writeFileSync(bundlePath, code);

  const env = {
    DATABASE_URL: pg.databaseUrl,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TASK_QUEUE: SHARED_TASK_QUEUE,
    WORKFLOW_BUNDLE_PATH: bundlePath,
    DATA_DIR: dir,
    // Tests' supplier APIs listen on loopback; one gateway test runs its own worker with this off.
    GATEWAY_ALLOW_PRIVATE_NETWORKS: 'true',
  };
  const config = loadConfig(env);
  const db = createDb(pg.databaseUrl, { poolMax: 10, applicationName: 'test-worker' });
  const logger = createLogger(config.LOG_LEVEL, { process: 'test-worker' });
  const { worker, close } = await createWorker({ config, db, logger, address: temporal.address, databaseUrl: pg.databaseUrl });
  const running = worker.run();
  cleanups.push(async () => {
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await running;
    await close();
    await db.destroy();
  });
  process.stdout.write(`${JSON.stringify(env)}\n`);
}

main().catch((error) => {
  process.stderr.write(`test services failed: ${(error as Error).stack}\n`);
  process.exit(1);
});
