import { AsyncLocalStorage } from 'node:async_hooks';
import { ApplicationFailure } from '@temporalio/common';
import { TokenBuckets } from '../core/tokenBuckets';

/** One activity execution's hold on its operator's turn at large data, once it took it. */
interface Scope {
  operatorId: string;
  release?: () => void;
}

const scopes = new AsyncLocalStorage<Scope>();

/** A call that may bring in large data, from before it is sent until its answer is charged (`PayloadBudget.reserve`). */
export interface LargeCall {
  operatorId: string;
  reserved: number;
  settled: boolean;
}

/** The longest an answer already in hand waits for its operator's budget. */
export const ARRIVAL_WAIT_MAX_MS = 2_000;

/**
 * How much large data each operator may bring into a worker: every answer over `minBytes` (a gateway or
 * `action.http_request` response) and every stored value an activity brings back in is charged to its operator, whose
 * budget refills at `bytesPerSecond` up to `burstBytes`. An operator in debt waits — its runs' calls pause before they
 * are sent (and fail `PAYLOAD_BUDGET_EXCEEDED` when the debt is longer than a run may wait), its `POST /gateway` calls
 * are refused with 429. The large answers themselves are legitimate (a 3 MB KYC document comes back whole); what the
 * budget bounds is how much of the worker's parsing, copying, sealing and writing one tenant can take, so others keep
 * theirs. Per worker process: N workers allow N times as much.
 *
 * A call's size is known only once it is answered, so a call is {@link reserve}d first at the size of the operator's
 * last large answer: calls of an operator that has just brought in megabytes wait for each other instead of all being
 * let in the moment its debt is paid. And an activity whose data turns out large works on it only in its operator's
 * {@link takeTurn | turn}, once the budget holds it: one at a time per operator, paced, so the worker's thread, shared
 * by every tenant, never has several of one tenant's megabytes in hand at once.
 *
 * @example const call = budget.reserve(operatorId); try { const answer = await send(); await budget.arrived(call, answer.length) } finally { budget.release(call) }
 */
export class PayloadBudget {
  private readonly buckets: TokenBuckets;
  /** Each operator's last large answer, while its answers keep being large. */
  private readonly lastLarge = new Map<string, number>();
  /** The end of each operator's queue of turns. */
  private readonly turns = new Map<string, Promise<void>>();

  constructor(
    readonly bytesPerSecond: number,
    burstBytes: number,
    readonly minBytes = 64 * 1024,
    now?: () => number,
  ) {
    this.buckets = new TokenBuckets(bytesPerSecond, burstBytes, now);
  }

  /** How long the operator must wait before it may bring in more large data: 0 when it may now. */
  waitMs(operatorId: string): number {
    return this.buckets.waitMs(operatorId);
  }

  /** Counts `bytes` the operator brought in; amounts under `minBytes` are free. */
  charge(operatorId: string, bytes: number): void {
    if (bytes >= this.minBytes) this.buckets.spend(operatorId, bytes);
  }

  /** Before a call that may bring in large data: spends what the operator's last large answer weighed, until it is answered. */
  reserve(operatorId: string): LargeCall {
    const reserved = this.lastLarge.get(operatorId) ?? 0;
    if (reserved > 0) this.buckets.spend(operatorId, reserved);
    return { operatorId, reserved, settled: false };
  }

  /**
   * The call's answer is in hand. A small one is free. A large one is worked on in its operator's {@link takeTurn | turn},
   * once the budget holds it (waiting at most {@link ARRIVAL_WAIT_MAX_MS}: the answer must still be worked on within its
   * activity's time), and is charged in place of the reservation.
   */
  async arrived(call: LargeCall, bytes: number): Promise<void> {
    if (bytes < this.minBytes) return this.settle(call, 0);
    await this.takeTurn();
    const waitMs = Math.min(this.buckets.waitMs(call.operatorId, bytes - call.reserved), ARRIVAL_WAIT_MAX_MS);
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
    this.settle(call, bytes);
  }

  /** After the call, whatever happened: gives back a reservation no answer used. */
  release(call: LargeCall): void {
    if (!call.settled) this.settle(call, 0);
  }

  private settle(call: LargeCall, large: number): void {
    const { operatorId, reserved } = call;
    call.settled = true;
    if (large !== reserved) this.buckets.spend(operatorId, large - reserved);
    this.lastLarge.delete(operatorId);
    if (large > 0) this.lastLarge.set(operatorId, large);
    if (this.lastLarge.size > 10_000) this.lastLarge.delete(this.lastLarge.keys().next().value!);
  }

  /** Runs one activity execution, and what the worker does around it, as a scope: a turn taken inside ends with it. */
  async scoped<T>(operatorId: string, work: () => Promise<T>): Promise<T> {
    const scope: Scope = { operatorId };
    try {
      return await scopes.run(scope, work);
    } finally {
      scope.release?.();
    }
  }

  /**
   * Inside a {@link scoped} execution whose data turns out large: waits until no other execution of the operator holds
   * its turn, then holds it until the execution ends. A second call in the same execution returns at once.
   */
  async takeTurn(): Promise<void> {
    const scope = scopes.getStore();
    if (!scope || scope.release) return;
    const { operatorId } = scope;
    const before = this.turns.get(operatorId) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = before.then(() => mine);
    this.turns.set(operatorId, tail);
    scope.release = () => {
      release();
      if (this.turns.get(operatorId) === tail) this.turns.delete(operatorId);
    };
    await before;
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
