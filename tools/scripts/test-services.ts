/**
 * Test services for jest's global setup, in their own process so native and ESM-only packages stay out
 * of jest: a throw-away embedded PostgreSQL, an in-memory `temporal server start-dev` (or, with
 * `PLATFORM_TOPOLOGY=cluster`, the Temporal server on that PostgreSQL: docs/production.md), migrations, the
 * prebuilt workflow bundle, and one shared worker (processes/stack.ts, without the API: each test file starts
 * its own). Prints one JSON line with the addresses, then runs until stdin closes or SIGTERM arrives, and
 * removes everything it made.
 */
import { startThrowawayServices } from '../stack/throwawayServices';
import { startStack } from '../../processes/stack';

const SHARED_TASK_QUEUE = 'test-shared';

async function main(): Promise<void> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const aborted = new AbortController();
  const starting = startStack({
    services: (config, serviceLog) => startThrowawayServices(config, serviceLog, { prefix: 'test' }),
    // Tests' supplier APIs listen on loopback; one gateway test runs its own worker with this off.
    env: { TEMPORAL_TASK_QUEUE: SHARED_TASK_QUEUE, GATEWAY_ALLOW_PRIVATE_NETWORKS: 'true' },
    api: false,
    bundle: true,
    poolMax: 10,
    logBindings: { process: 'test-worker' },
    log,
    signal: aborted.signal,
  });
  const shutdown = async () => {
    aborted.abort();
    const stack = await starting.catch(() => undefined);
    await stack?.close();
    process.exit(0);
  };
  process.stdin.on('end', () => void shutdown());
  process.stdin.resume();
  process.on('SIGTERM', () => void shutdown());

  const stack = await starting.catch((error: Error) => {
    if (aborted.signal.aborted) return undefined;
    throw error;
  });
  if (!stack) return;
  const env = {
    DATABASE_URL: stack.services.databaseUrl,
    TEMPORAL_ADDRESS: stack.services.temporalAddress,
    TEMPORAL_TASK_QUEUE: SHARED_TASK_QUEUE,
    WORKFLOW_BUNDLE_PATH: stack.bundlePath,
    DATA_DIR: stack.services.dir,
    GATEWAY_ALLOW_PRIVATE_NETWORKS: 'true',
  };
  process.stdout.write(`${JSON.stringify(env)}\n`);
}

main().catch((error: unknown) => {
  // Some starts reject with no Error at all (an embedded PostgreSQL that exited): say so rather than crash here.
  process.stderr.write(`test services failed: ${error instanceof Error ? error.stack : `a rejection without an error (${String(error)})`}\n`);
  process.exit(1);
});
