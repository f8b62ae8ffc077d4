import http from 'node:http';
import { createApp } from '../api/app';
import type { AppDeps } from '../api/deps';
import { startMetricsServer } from '../api/metrics/server';
import { closeJsonReadPool } from '../core/jsonReadPool';

export interface RunningApi {
  url: string;
  /** The metrics listener's `/metrics` URL, when METRICS_PORT is set. */
  metricsUrl?: string;
  close(): Promise<void>;
}

/** Listens on HOST:PORT (port 0 picks a free one) and returns a `close` that drains and releases everything. */
export async function startApiServer(deps: AppDeps, options: { closeDb?: boolean } = {}): Promise<RunningApi> {
  const server = http.createServer(createApp(deps).callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(deps.config.PORT, deps.config.HOST, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : deps.config.PORT;
  const host = deps.config.HOST === '0.0.0.0' ? '127.0.0.1' : deps.config.HOST;
  const metrics =
    deps.metrics && deps.config.METRICS_PORT !== undefined
      ? await startMetricsServer(deps.metrics.registry, deps.config.METRICS_HOST, deps.config.METRICS_PORT)
      : undefined;
  return {
    url: `http://${host}:${port}`,
    ...(metrics ? { metricsUrl: metrics.url } : {}),
    close: async () => {
      await metrics?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await closeJsonReadPool();
      await deps.keyUsage.stop();
      await deps.caches.feed.stop();
      await deps.temporal.close();
      if (options.closeDb !== false) await deps.db.destroy();
    },
  };
}
