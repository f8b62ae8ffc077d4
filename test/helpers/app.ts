import type { AppDeps } from '../../api/deps';
import { loadConfig } from '../../core/config';
import { createLogger } from '../../core/logger';
import { createDb } from '../../db/knex';
import { startApiServer } from '../../processes/apiServer';
import { buildAppDeps } from '../../processes/appDeps';
import { contractBreaches } from '../../api/responseContract';

export interface TestApp {
  url: string;
  /** The metrics listener's URL, when the overrides set METRICS_PORT. */
  metricsUrl?: string;
  deps: AppDeps;
  close(): Promise<void>;
}

/**
 * Starts the real API on a free loopback port against the test PostgreSQL and Temporal server.
 * `overrides` are environment variables, parsed by the same config module as production.
 */
export async function startTestApp(overrides: Record<string, string> = {}, options: { logLines?: string[] } = {}): Promise<TestApp> {
  const config = loadConfig({ CHECK_RESPONSE_BODIES: 'true', ...overrides });
  const lines = options.logLines;
  const logger = lines ? createLogger('trace', {}, { write: (line: string) => void lines.push(line) }) : createLogger(config.LOG_LEVEL);
  const db = createDb(config.DATABASE_URL!, { poolMax: 10, applicationName: 'test-api' });
  const deps = await buildAppDeps(config, logger, db);
  const api = await startApiServer(deps);
  const close = async () => {
    await api.close();
    const breaches = [...new Set(contractBreaches.splice(0))];
    if (breaches.length > 0) throw new Error(`2xx bodies broke their declared schema (CHECK_RESPONSE_BODIES):\n${breaches.join('\n')}`);
  };
  return { url: api.url, ...(api.metricsUrl ? { metricsUrl: api.metricsUrl } : {}), deps, close };
}
