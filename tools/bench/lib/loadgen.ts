/**
 * The load generator of the HTTP benchmarks, in a process of its own so that the process under test
 * spends its CPU on serving: `autocannon` with a JSON job on stdin, one JSON result line on stdout.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { LoadJob } from './load';

const job = JSON.parse(readFileSync(0, 'utf8')) as LoadJob;
let n = 0;

const instance = autocannon(
  {
    url: job.url,
    connections: job.connections,
    duration: job.seconds,
    timeout: 30,
    ...(job.overallRate ? { overallRate: job.overallRate } : {}),
    requests: [
      {
        method: job.method,
        setupRequest: (request: Record<string, unknown>) => {
          const i = n++;
          const variant = job.variants[i % job.variants.length]!;
          return {
            ...request,
            path: variant.path,
            body: variant.body,
            headers: { ...job.headers, ...(variant.body ? { 'content-type': 'application/json' } : {}) },
          };
        },
      },
    ],
  },
  (error: Error | null, result: autocannon.Result) => {
    if (error) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    process.stdout.write(
      `${JSON.stringify({
        requests: result.requests.total,
        seconds: job.seconds,
        rps: result.requests.total / job.seconds,
        p50: result.latency.p50,
        p99: result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
      })}\n`,
    );
  },
);
process.once('SIGTERM', () => instance.stop());
