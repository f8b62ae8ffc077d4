import { ApplicationFailure } from '@temporalio/common';
import { TokenBuckets } from '../core/tokenBuckets';

/**
 * How much large data each operator may bring into a worker: every answer over `minBytes` (a gateway or
 * `action.http_request` response) and every stored value an activity brings back in is charged to its operator, whose
 * budget refills at `bytesPerSecond` up to `burstBytes`. An operator in debt waits — its runs' calls pause before they
 * are sent (and fail `PAYLOAD_BUDGET_EXCEEDED` when the debt is longer than a run may wait), its `POST /gateway` calls
 * are refused with 429. The large answers themselves are legitimate (a 3 MB KYC document comes back whole); what the
 * budget bounds is how much of the worker's parsing, copying, sealing and writing one tenant can take, so others keep
 * theirs. Per worker process: N workers allow N times as much.
 *
 * @example const budget = new PayloadBudget(1 << 19, 8 << 20); budget.charge(operatorId, 3 << 20); budget.waitMs(operatorId)
 */
export class PayloadBudget {
  private readonly buckets: TokenBuckets;

  constructor(
    readonly bytesPerSecond: number,
    burstBytes: number,
    readonly minBytes = 64 * 1024,
  ) {
    this.buckets = new TokenBuckets(bytesPerSecond, burstBytes);
  }

  /** How long the operator must wait before it may bring in more large data: 0 when it may now. */
  waitMs(operatorId: string): number {
    return this.buckets.waitMs(operatorId);
  }

  /** Counts `bytes` the operator brought in; amounts under `minBytes` are free. */
  charge(operatorId: string, bytes: number): void {
    if (bytes >= this.minBytes) this.buckets.spend(operatorId, bytes);
  }
}

/** The longest a run's activity pauses for its operator's budget; a longer debt fails the node instead of holding a slot. */
export const RUN_BUDGET_WAIT_MS = 10_000;

/**
 * Before a run's activity that may bring in large data: an operator in debt pauses until its budget is back, at most
 * {@link RUN_BUDGET_WAIT_MS}; beyond that the activity fails, not retried, with `PAYLOAD_BUDGET_EXCEEDED`.
 */
export async function pauseForPayloadBudget(budget: PayloadBudget | undefined, operatorId: string): Promise<void> {
  const waitMs = budget?.waitMs(operatorId) ?? 0;
  if (waitMs > RUN_BUDGET_WAIT_MS) {
    throw ApplicationFailure.create({
      type: 'PAYLOAD_BUDGET_EXCEEDED',
      message: `This organisation brought in more large data than its budget allows; it may again in ${Math.ceil(waitMs / 1000)} s`,
      nonRetryable: true,
    });
  }
  if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
}
