import http from 'node:http';

/**
 * A lean HTTP/1.1 client for benchmarks that send requests from the process they measure: `node:http` on a
 * keep-alive agent. `fetch` (undici and its web streams) cost this process 0.7–1.4 ms more CPU per request than this
 * in `bench:gateway`, which is the client's cost, not the server's, and on two cores it is taken from the server.
 *
 * @example const client = leanClient(); const { status, body } = await client.send('POST', url, { 'content-type': 'application/json' }, '{}')
 */
export function leanClient(maxSockets = 16) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  return {
    send(method: string, url: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: string }> {
      const target = new URL(url);
      return new Promise((resolve, reject) => {
        const request = http.request(
          {
            agent,
            hostname: target.hostname,
            port: target.port,
            path: `${target.pathname}${target.search}`,
            method,
            headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
            response.on('error', reject);
          },
        );
        request.on('error', reject);
        request.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}
