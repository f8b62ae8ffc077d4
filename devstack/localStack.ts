import path from 'node:path';
import type { Config } from '../core/config';
import type { DevServices } from './devServices';
import { startEmbeddedPostgres } from './embeddedPostgres';
import { findTemporalCli } from './temporalCli';
import { startTemporalDevServer } from './temporalDevServer';

/**
 * Brings up what the configuration does not point at: embedded PostgreSQL unless `DATABASE_URL` is
 * set, a `temporal server start-dev` unless `TEMPORAL_ADDRESS` is set. State lives under `DATA_DIR`.
 */
export async function startLocalStack(config: Config, log: (line: string) => void): Promise<DevServices> {
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch((error) => log(`stop failed: ${(error as Error).message}`));
  };
  try {
    let databaseUrl = config.DATABASE_URL;
    if (!databaseUrl) {
      log(`starting embedded PostgreSQL on port ${config.EMBEDDED_PG_PORT} (data in ${path.join(config.DATA_DIR, 'postgres')})…`);
      const pg = await startEmbeddedPostgres({ dataDir: path.resolve(config.DATA_DIR, 'postgres'), port: config.EMBEDDED_PG_PORT, persistent: true, log });
      stops.push(pg.stop);
      databaseUrl = pg.databaseUrl;
    }
    let temporalAddress = config.TEMPORAL_ADDRESS;
    let temporalUiUrl: string | null = null;
    if (!temporalAddress) {
      const binary = await findTemporalCli({ explicitPath: config.TEMPORAL_CLI_PATH, log });
      log(`starting Temporal dev server on port ${config.TEMPORAL_PORT} (${binary})…`);
      const temporal = await startTemporalDevServer({
        binary,
        port: config.TEMPORAL_PORT,
        uiPort: config.TEMPORAL_UI_PORT,
        dbFile: path.resolve(config.DATA_DIR, 'temporal.sqlite'),
        namespace: config.TEMPORAL_NAMESPACE,
        // The API listens on HOST:PORT once the stack is up; the UI only calls the codec when a page shows payloads.
        ...(config.PORT > 0 ? { uiCodecEndpoint: `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${config.PORT}/temporal-codec` } : {}),
        log,
      });
      stops.push(temporal.stop);
      temporalAddress = temporal.address;
      temporalUiUrl = temporal.uiUrl;
    }
    return { databaseUrl, temporalAddress, temporalUiUrl, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
