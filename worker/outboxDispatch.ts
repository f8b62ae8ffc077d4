import { operatorsWithPendingEvents, settleUnheardOutbox } from '../db/queries/outboxDispatch';
import { DispatchFaults } from './dispatchFaults';
import { OverShareError } from './overShare';
import { BATCH, dispatchOperator, type DispatchDeps, type OperatorPass } from './operatorDispatch';

export type { DispatchDeps } from './operatorDispatch';

export interface DispatchTotals {
  claimed: number;
  started: number;
}

/** Operators whose events are dispatched at once by one process: each holds one database connection meanwhile. */
const OPERATORS_AT_ONCE = 4;
/**
 * The dispatcher's database pool, apart from the worker's: a pass for each operator at once, the loop's look, and the
 * in-flight and lane-key look-ups. Sharing the worker's pool, a bystander's pass queued behind the activities of a
 * burst's runs for seconds (bench:dispatch: 3.6 s at p50 to reach its pass).
 */
export const DISPATCH_POOL_SIZE = OPERATORS_AT_ONCE + 2;
/** After a pass failed (an outage), the operator rests this long, doubling up to {@link MAX_FAILURE_REST_MS}. */
const FAILURE_REST_MS = 500;
const MAX_FAILURE_REST_MS = 30_000;
/** How often the look for unheard events runs while the last one found none. */
const SETTLE_EVERY_MS = 1_000;
/** How long an organisation rests when its share of the sandbox ran out in the middle of starting its runs. */
const SHARE_REST_MS = 1_000;

/**
 * Dispatches the outbox per operator (docs/workflows.md "How events reach automations"). Each operator's events go in
 * a pass of their own (worker/operatorDispatch.ts), up to {@link OPERATORS_AT_ONCE} operators at once, the operator with
 * the oldest pending event first; an operator being dispatched, or resting until its share refills or an outage
 * passes, is left out of the next look while the others' events go on. So one operator's slow filters, failures or
 * backlog delay that operator, never another.
 *
 * One per worker process, shared by the LISTEN loop (worker/eventDispatcher.ts) and the minute sweep; several processes
 * share the outbox through each operator's dispatch lock.
 *
 * @example const dispatcher = new OutboxDispatcher(deps); await dispatcher.drain() // { claimed: 12, started: 3 }
 */
export class OutboxDispatcher {
  private readonly running = new Map<string, Promise<void>>();
  private readonly resting = new Map<string, { until: number; failures: number }>();
  private readonly faults = new DispatchFaults();
  private readonly totals: DispatchTotals = { claimed: 0, started: 0 };
  private loop: Promise<void> | null = null;
  private settledAt = -Infinity;
  private settling = true;
  private again = false;
  private wake: (() => void) | null = null;
  private restTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly deps: DispatchDeps,
    private readonly options: { operatorsAtOnce?: number; onRestEnded?: () => void } = {},
  ) {}

  /** Starts a look for pending events (or asks the running loop for another); resolves when the loop is idle. */
  kick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.again = true;
    this.wake?.();
    return (this.loop ??= this.run().finally(() => {
      this.loop = null;
    }));
  }

  /**
   * Dispatches what can be dispatched now and answers what this drain claimed and started; returns after `maxMs` at
   * most (the loop carries on), so a sweep under a steady stream of events still ends.
   */
  async drain(maxMs = Infinity): Promise<DispatchTotals> {
    const before = { ...this.totals };
    let timer: NodeJS.Timeout | undefined;
    const limit = Number.isFinite(maxMs) ? new Promise<void>((resolve) => (timer = setTimeout(resolve, maxMs))) : new Promise<void>(() => undefined);
    try {
      await Promise.race([this.kick(), limit]);
    } finally {
      clearTimeout(timer);
    }
    return { claimed: this.totals.claimed - before.claimed, started: this.totals.started - before.started };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.restTimer);
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    const atOnce = this.options.operatorsAtOnce ?? OPERATORS_AT_ONCE;
    while (!this.stopped) {
      this.again = false;
      await this.settleUnheard();
      if (this.running.size < atOnce) {
        const skip = [...this.running.keys(), ...this.restingNow()];
        for (const operatorId of await operatorsWithPendingEvents(this.deps.db, skip, atOnce - this.running.size)) this.launch(operatorId);
      }
      if (this.running.size === 0 && !this.again) break;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        if (this.again || this.stopped) resolve();
      });
      this.wake = null;
    }
    this.planRestEnd();
  }

  /**
   * Marks the oldest pending events nobody hears dispatched. Under a backlog of heard events the statement locks its
   * 500 rows and settles none, on every turn of the loop (ten a second beside a burst): it runs again at once only
   * while it settles something, else at most once per {@link SETTLE_EVERY_MS}. A pass marks unheard events it claims
   * anyway, so this only spares the passes their claim.
   */
  private async settleUnheard(): Promise<void> {
    const now = Date.now();
    if (!this.settling && now - this.settledAt < SETTLE_EVERY_MS) return;
    this.settledAt = now;
    const settled = await settleUnheardOutbox(this.deps.db, BATCH);
    const count = settled.taken - settled.heard;
    this.settling = count > 0;
    this.totals.claimed += count;
  }

  private launch(operatorId: string): void {
    const pass = dispatchOperator(this.deps, operatorId, this.faults)
      .then((outcome) => this.settle(operatorId, outcome))
      .catch((error: unknown) => this.failed(operatorId, error))
      .finally(() => {
        this.running.delete(operatorId);
        this.again = true;
        this.wake?.();
      });
    this.running.set(operatorId, pass);
  }

  private settle(operatorId: string, outcome: OperatorPass): void {
    if (outcome.kind === 'elsewhere') return this.rest(operatorId, FAILURE_REST_MS, 0);
    this.totals.claimed += outcome.claimed;
    this.totals.started += outcome.started;
    if (outcome.kind === 'deferred') this.rest(operatorId, outcome.retryInMs, 0);
    else this.resting.delete(operatorId);
  }

  private failed(operatorId: string, error: unknown): void {
    // A run-control key met the spent share while its runs were being started: the pass is tried again once it refills.
    if (error instanceof OverShareError) return this.rest(operatorId, SHARE_REST_MS, 0);
    const failures = (this.resting.get(operatorId)?.failures ?? 0) + 1;
    this.deps.logger.warn({ operatorId, err: (error as Error).message, failures }, 'event dispatch failed for an operator; its events stay pending');
    this.rest(operatorId, Math.min(MAX_FAILURE_REST_MS, FAILURE_REST_MS * 2 ** (failures - 1)), failures);
  }

  private rest(operatorId: string, ms: number, failures: number): void {
    this.resting.set(operatorId, { until: Date.now() + ms, failures });
  }

  private restingNow(): string[] {
    const now = Date.now();
    const resting: string[] = [];
    for (const [operatorId, rest] of this.resting) if (rest.until > now) resting.push(operatorId);
    return resting;
  }

  /** When the loop goes idle with operators resting, a look is due when the first rest ends (no NOTIFY will come for them). */
  private planRestEnd(): void {
    clearTimeout(this.restTimer);
    const now = Date.now();
    let soonest = Infinity;
    for (const [operatorId, rest] of this.resting) {
      if (rest.until > now) soonest = Math.min(soonest, rest.until);
      else if (rest.failures === 0) {
        // Its rest ended while the loop was looking (a slow look, a short rest): it may still have events, so look again.
        this.resting.delete(operatorId);
        soonest = now;
      }
    }
    if (soonest === Infinity || this.stopped) return;
    this.restTimer = setTimeout(() => {
      this.restTimer = undefined;
      void this.kick();
      this.options.onRestEnded?.();
    }, soonest - now);
    this.restTimer.unref?.();
  }
}

/**
 * Dispatches every pending outbox event that can be dispatched now, with a dispatcher of its own (tests, scripts); a
 * worker shares one {@link OutboxDispatcher} between its listener and the sweep.
 *
 * @example await dispatchPendingEvents({ db, logger, keyring, router, runs }) // { claimed: 12, started: 3 }
 */
export async function dispatchPendingEvents(deps: DispatchDeps): Promise<DispatchTotals> {
  const dispatcher = new OutboxDispatcher(deps);
  try {
    return await dispatcher.drain();
  } finally {
    await dispatcher.stop();
  }
}
