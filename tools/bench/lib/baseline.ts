import type { TemporalClient } from '../../../temporal/client';
import { runDiagnostics } from '../../../temporal/diagnostics';

/**
 * The baseline every Temporal-backed benchmark prints beside its figures: one diagnostics workflow with
 * one normal activity, started and awaited by the API's Temporal client — the floor of any request that
 * goes through the server.
 *
 * @example const bare = bareWorkflowRoundTrip(stack.deps.temporal); await measure(bare, { count: 100, concurrency: 1, timeLimitMs })
 */
export function bareWorkflowRoundTrip(temporal: TemporalClient): () => Promise<void> {
  return () => runDiagnostics(temporal, 'bench').then(() => undefined);
}

/** Runs a benchmark's `main` and exits: 0 when it finished, 1 with the stack trace when it threw. */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`bench failed: ${(error as Error).stack}\n`);
      process.exit(1);
    },
  );
}
