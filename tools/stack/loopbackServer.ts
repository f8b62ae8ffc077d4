import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Called once a request's body has been read in full, so a handler can answer (or hold the response) knowing the
 * client has finished sending. A returned promise is not awaited: the handler owns the response.
 */
export type LoopbackHandler = (request: http.IncomingMessage, body: string, response: http.ServerResponse) => void | Promise<void>;

export interface LoopbackOptions {
  /**
   * How long an idle kept-alive connection stays open, in ms (Node's default, 5 s, when not given). Benchmarks raise it:
   * the gateway's agent keeps pooled sockets with no idle limit, and a call after a pause must not race the server
   * closing the socket it reuses.
   */
  keepAliveTimeout?: number;
}

/**
 * An HTTP server on 127.0.0.1 at a free port, for suppliers, webhook receivers and other targets the platform calls in
 * benchmarks, fault runs, replay recordings and tests. Only loopback: nothing outside the machine can reach it.
 * `close()` also drops kept-alive and in-flight connections, so a held response cannot keep a run from stopping.
 */
export async function startLoopbackServer(handle: LoopbackHandler, options: LoopbackOptions = {}): Promise<LoopbackServer> {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => void handle(request, Buffer.concat(chunks).toString('utf8'), response));
  });
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
