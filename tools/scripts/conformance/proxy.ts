import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AuthProxy {
  /** `http://127.0.0.1:<port>`: the origin the suite talks to. */
  url: string;
  port: number;
  /** Where requests go from now on, and the API key each one carries. */
  target(apiUrl: string, apiKey: string): void;
  close(): Promise<void>;
}

/**
 * A loopback reverse proxy that adds `Authorization: Bearer <key>` to every request: the conformance suite has no
 * option for auth headers, and the MCP endpoint takes API keys only. Everything else passes unchanged — method, path,
 * the client's `Host` and `Origin` (the DNS-rebinding scenario depends on them), the body — and answers are piped back
 * as they arrive, so event streams stream. A client that goes away closes its upstream request too. It listens before
 * the stack starts, so the stack can name the proxy's origin in `ALLOWED_ORIGINS`.
 *
 * @example const proxy = await startAuthProxy(); proxy.target(stack.api.url, key); // then point the suite at `${proxy.url}/mcp-server`
 */
export async function startAuthProxy(): Promise<AuthProxy> {
  let upstream: { url: URL; key: string } | undefined;
  const server = http.createServer((request, response) => {
    if (!upstream) {
      response.writeHead(503, { 'content-type': 'text/plain' }).end('the stack is not up yet\n');
      return;
    }
    const headers: http.OutgoingHttpHeaders = { ...request.headers, authorization: `Bearer ${upstream.key}` };
    const outgoing = http.request(
      { hostname: upstream.url.hostname, port: upstream.url.port, method: request.method, path: request.url, headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.headers);
        answer.pipe(response);
      },
    );
    outgoing.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' }).end(`proxy: ${error.message}\n`);
      else response.destroy();
    });
    response.on('close', () => outgoing.destroy());
    request.pipe(outgoing);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    target: (apiUrl, apiKey) => {
      upstream = { url: new URL(apiUrl), key: apiKey };
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
