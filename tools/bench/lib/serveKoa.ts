import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';

/**
 * Serves a bench's bare Koa app on a loopback port, with the keep-alive the load generator's connections expect; `close`
 * drops those connections rather than waiting for them.
 */
export async function serveKoa(app: Koa): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
