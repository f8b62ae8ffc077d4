import { ActivityFailure, CancellationScope, continueAsNew, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { BacktestInput } from '../core/workflowContracts';

/** Activities on the job's own (background) queue: a page takes seconds, longer than a workflow task should be held. */
const { backtestPage, endBacktest } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 10, initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

/** Pages per workflow run before it continues as new: its history stays a few hundred events. */
const PAGES_PER_RUN = 100;

export interface BacktestResult {
  status: 'completed' | 'cancelled' | 'failed' | 'running' | 'gone';
}

/**
 * One backtest job (`backtests`, docs/compliance.md "Backtest"): replays the operator's stored history page by page
 * (`backtestPage`, each page recorded once with the cursor it moves), then writes the result (`endBacktest`). It
 * holds no history itself: the cursor and tallies live in the row, so a restarted or continued job resumes where the
 * row says. Cancelling it (or the row being marked cancelled) replays nothing more; a page that keeps failing fails it.
 */
export async function backtestWorkflow(input: BacktestInput): Promise<BacktestResult> {
  const { operatorId, backtestId } = input;
  let pages = input.pages ?? 0;
  try {
    for (;;) {
      const step = await backtestPage({ operatorId, backtestId });
      if (step.kind === 'stop') return { status: step.status };
      if (step.kind === 'done') return { status: await endBacktest({ operatorId, backtestId, status: 'completed' }) };
      pages += 1;
      if (pages % PAGES_PER_RUN === 0) return await continueAsNew<typeof backtestWorkflow>({ ...input, pages });
    }
  } catch (error) {
    if (isCancellation(error)) {
      await CancellationScope.nonCancellable(() => endBacktest({ operatorId, backtestId, status: 'cancelled' }));
      throw error;
    }
    if (!(error instanceof ActivityFailure)) throw error;
    const message = error.cause?.message ?? error.message;
    return { status: await endBacktest({ operatorId, backtestId, status: 'failed', error: `A page could not be replayed: ${message}` }) };
  }
}
