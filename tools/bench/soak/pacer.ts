import http from 'node:http';
import { percentile } from '../lib/stats';

/** One kind of request's figures over a minute (or the whole run). */
export interface Tally {
  requests: number;
  errors: number;
  /** Due but not sent: the kind already had its cap of requests in flight (the platform fell behind). */
  skipped: number;
  latencies: number[];
  /** The first few distinct error messages. */
  samples: string[];
}

export const emptyTally = (): Tally => ({ requests: 0, errors: 0, skipped: 0, latencies: [], samples: [] });

export function summary(tally: Tally): { p50: number; p99: number } {
  const sorted = [...tally.latencies].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** One JSON request over a keep-alive connection; resolves with status and parsed body (30 s timeout). */
export function send(url: string, options: { method?: string; key: string; body?: unknown }): Promise<{ status: number; body: any }> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        agent,
        method: options.method ?? (payload ? 'POST' : 'GET'),
        headers: {
          authorization: `Bearer ${options.key}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
        timeout: 30_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: response.statusCode ?? 0, body });
        });
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out after 30 s')));
    request.on('error', reject);
    request.end(payload);
  });
}

/**
 * Sends `fire()` at `perSecond` (open loop: on schedule, whatever the answers' pace), with at most `maxInFlight`
 * outstanding; a request that throws is an error, with its message kept as a sample. `tally()` is read and
 * replaced by the minute's reporter.
 */
export function pace(perSecond: number, maxInFlight: number, fire: (n: number) => Promise<void>) {
  let current = emptyTally();
  let inFlight = 0;
  let due = 0;
  let sent = 0;
  let last = performance.now();
  const inFlightDone: Array<() => void> = [];
  const timer = setInterval(() => {
    const now = performance.now();
    due += ((now - last) / 1000) * perSecond;
    last = now;
    for (; due >= 1; due -= 1) {
      if (inFlight >= maxInFlight) {
        current.skipped += 1;
        continue;
      }
      inFlight += 1;
      const started = performance.now();
      fire(sent++)
        .then(
          () => {
            current.requests += 1;
            current.latencies.push(performance.now() - started);
          },
          (error: unknown) => {
            current.requests += 1;
            current.errors += 1;
            const message = error instanceof Error ? error.message : String(error);
            if (current.samples.length < 3 && !current.samples.includes(message)) current.samples.push(message);
          },
        )
        .finally(() => {
          inFlight -= 1;
          if (inFlight === 0) inFlightDone.splice(0).forEach((resolve) => resolve());
        });
    }
  }, 10);
  return {
    /** This minute's figures; the next minute starts afresh. Late answers count in the minute they arrive. */
    take(): Tally {
      const taken = current;
      current = emptyTally();
      return taken;
    },
    /** Stops sending and waits for what is in flight. */
    async stop(): Promise<Tally> {
      clearInterval(timer);
      if (inFlight > 0) await new Promise<void>((resolve) => inFlightDone.push(resolve));
      return current;
    },
  };
}
