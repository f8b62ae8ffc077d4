import { TokenBuckets } from '../core/tokenBuckets';
import { SandboxProcess } from './sandboxProcess';
import type { ExpressionOutcome, ExpressionTask } from './tasks';

export interface SandboxOptions {
  /**
   * CPU budget of one task (its process's own CPU time from the moment it begins the task: queueing and a starved
   * machine excluded); ten times as long in wall-clock time is the hard stop.
   */
  timeoutMs: number;
  /** Old-space heap of each sandbox process; a task that needs more ends its process. */
  memoryMb: number;
  /** Sandbox processes; one operator holds at most `processes - 1` of them while another waits. */
  processes: number;
  /**
   * The share of one sandbox process an operator may use over time (0.25: 250 ms of evaluation and restarts a second),
   * with `burstMs` to spend at once. An operator past it waits until its share has refilled: its own runs slow down.
   */
  operatorShare?: number;
  burstMs?: number;
  /** Hears every task stopped by a budget or refused for its operator's share, for the logs and metrics of the caller. */
  onOverBudget?: (event: { operatorId: string; code: 'EXPRESSION_TIMEOUT' | 'EXPRESSION_MEMORY_LIMIT' | 'EXPRESSION_BUDGET_EXCEEDED'; field: string }) => void;
}

interface Waiting {
  operatorId: string;
  task: ExpressionTask;
  resolve(outcome: ExpressionOutcome): void;
  reject(error: Error): void;
  /** Ends the wait with `EXPRESSION_BUDGET_EXCEEDED` when the task has not begun by then. */
  deadline: NodeJS.Timeout;
}

/** How long a caller waits for its operator's share, unless it says otherwise: what a run's evaluation step waits. */
export const DEFAULT_WAIT_MS = 10_000;

/** Each task's first milliseconds are free: everyday expressions take one or two, so only heavy ones spend the share. */
const FREE_MS = 5;
/**
 * Tasks of one operator that may wait at once: a memory bound, not a budget. Callers are bounded already (a run's
 * evaluation holds a worker slot, the dispatcher evaluates a few at a time per operator), so it is met only by a fault.
 */
export const MAX_QUEUED = 1_000;

/** The sandbox is closed, or a process could not begin a task: a platform fault, retried by the caller, never the tenant's. */
export class SandboxUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxUnavailableError';
  }
}

/**
 * Where tenant expressions run: child processes (`sandbox/sandboxProcess.ts`), each with a heap limit and no secret in
 * its environment, so no expression runs on a thread that serves requests or other workflows. A task past its CPU
 * budget (or ten times it in wall-clock time) has its process killed (a backtracking regex stops only that way); a task
 * past the heap limit ends its own process — both come back as tenant failures (`EXPRESSION_TIMEOUT`,
 * `EXPRESSION_MEMORY_LIMIT`), and that slot takes work again once a new process has said it is ready. Worker threads
 * were measured and rejected: a large array in a thread with `resourceLimits` aborts the whole Node process instead of
 * the thread (docs/security.md).
 *
 * Tasks queue per operator and are taken round robin, and one operator never holds every process while another
 * waits — the restart its over-budget task causes counts as its own: a tenant flooding the sandbox delays its own
 * evaluations, not the others'.
 *
 * @example const outcome = await sandbox.evaluate(operatorId, { kind: 'condition', expression: 'trigger.amount > 10', field: 'params.expression', context })
 */
export class ExpressionSandbox {
  private readonly slots: Array<{ process: SandboxProcess; busy: boolean }>;
  private readonly waiting = new Map<string, Waiting[]>();
  private readonly active = new Map<string, number>();
  private readonly perOperator: number;
  /** Each operator's sandbox time (ms), refilled at `operatorShare` ms a ms up to `burstMs`. */
  private readonly time: TokenBuckets | undefined;
  private refillTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: SandboxOptions) {
    this.perOperator = Math.max(1, options.processes - 1);
    this.time = options.operatorShare ? new TokenBuckets(options.operatorShare * 1000, options.burstMs ?? 2_000) : undefined;
    this.slots = Array.from({ length: options.processes }, () => ({ process: new SandboxProcess(options.memoryMb), busy: false }));
    for (const slot of this.slots) void slot.process.prepare().catch(() => undefined);
  }

  /**
   * Evaluates one task for an operator, within the budgets; rejects only with {@link SandboxUnavailableError}. An
   * operator past its share waits until its share has refilled: a task not begun within `waitMs` (default
   * {@link DEFAULT_WAIT_MS}) answers `EXPRESSION_BUDGET_EXCEEDED`, for its caller to wait longer (a run's step is
   * retried, the dispatcher leaves the event pending) or to say so (a preview).
   */
  evaluate(operatorId: string, task: ExpressionTask, options: { waitMs?: number } = {}): Promise<ExpressionOutcome> {
    if (this.closed) return Promise.reject(new SandboxUnavailableError('the expression sandbox is closed'));
    if ((this.waiting.get(operatorId)?.length ?? 0) >= MAX_QUEUED) return Promise.resolve(this.refused(operatorId, task));
    return new Promise<ExpressionOutcome>((resolve, reject) => {
      const queue = this.waiting.get(operatorId) ?? [];
      const item: Waiting = {
        operatorId,
        task,
        resolve,
        reject,
        deadline: setTimeout(() => this.expire(item), options.waitMs ?? DEFAULT_WAIT_MS),
      };
      queue.push(item);
      this.waiting.set(operatorId, queue);
      this.pump();
    });
  }

  /** Tasks waiting for a process, over every operator. */
  get queued(): number {
    let count = 0;
    for (const queue of this.waiting.values()) count += queue.length;
    return count;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const queue of this.waiting.values())
      for (const item of queue) {
        clearTimeout(item.deadline);
        item.reject(new SandboxUnavailableError('the expression sandbox is closed'));
      }
    this.waiting.clear();
    for (const slot of this.slots) slot.process.kill();
    clearTimeout(this.refillTimer);
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.busy || this.closed) continue;
      const next = this.takeNext();
      if (!next) return;
      void this.execute(slot, next);
    }
  }

  /** The oldest task of the next operator in turn that may take another process; that operator moves to the back. */
  private takeNext(): Waiting | undefined {
    let soonestMs = Infinity;
    for (const [operatorId, queue] of this.waiting) {
      if ((this.active.get(operatorId) ?? 0) >= this.perOperator) continue;
      const owedMs = this.waitMs(operatorId);
      if (owedMs > 0) {
        soonestMs = Math.min(soonestMs, owedMs);
        continue;
      }
      const item = queue.shift()!;
      clearTimeout(item.deadline);
      this.waiting.delete(operatorId);
      if (queue.length > 0) this.waiting.set(operatorId, queue);
      return item;
    }
    if (soonestMs < Infinity && !this.refillTimer) {
      this.refillTimer = setTimeout(() => {
        this.refillTimer = undefined;
        this.pump();
      }, soonestMs);
    }
    return undefined;
  }

  /** A task that waited its whole `waitMs` leaves the queue unbegun. */
  private expire(item: Waiting): void {
    const queue = this.waiting.get(item.operatorId);
    const at = queue?.indexOf(item) ?? -1;
    if (!queue || at < 0) return;
    queue.splice(at, 1);
    if (queue.length === 0) this.waiting.delete(item.operatorId);
    item.resolve(this.refused(item.operatorId, item.task));
  }

  private refused(operatorId: string, task: ExpressionTask): ExpressionOutcome {
    const field = task.kind === 'condition' ? task.field : 'params';
    const message = `Evaluating ${field} was refused: this organisation's expressions have used their share of the sandbox for now`;
    this.options.onOverBudget?.({ operatorId, code: 'EXPRESSION_BUDGET_EXCEEDED', field });
    return { ok: false, code: 'EXPRESSION_BUDGET_EXCEEDED', message, field };
  }

  /** How long until the operator's share of sandbox time is back above zero: 0 when its next task may begin now. */
  waitMs(operatorId: string): number {
    return this.time?.waitMs(operatorId) ?? 0;
  }

  private async execute(slot: { process: SandboxProcess; busy: boolean }, item: Waiting): Promise<void> {
    const { operatorId } = item;
    slot.busy = true;
    this.active.set(operatorId, (this.active.get(operatorId) ?? 0) + 1);
    const started = performance.now();
    try {
      const result = await slot.process.run(item.task, this.options.timeoutMs).catch((error: Error) => error);
      if (result instanceof Error) item.reject(new SandboxUnavailableError(`expression sandbox failed: ${result.message}`));
      else if (result.kind === 'outcome') item.resolve(result.outcome);
      else if (result.kind === 'timeout') item.resolve(this.overBudget(operatorId, 'EXPRESSION_TIMEOUT', result.field));
      else if (result.started) item.resolve(this.overBudget(operatorId, 'EXPRESSION_MEMORY_LIMIT', result.field));
      else item.reject(new SandboxUnavailableError('the expression sandbox process could not take the task'));
      // A killed process is replaced before the slot takes work again; the restart counts against the operator.
      if (!this.closed && !(result instanceof Error) && result.kind !== 'outcome') await slot.process.prepare().catch(() => undefined);
    } finally {
      this.time?.spend(operatorId, Math.max(0, performance.now() - started - FREE_MS));
      const left = (this.active.get(operatorId) ?? 1) - 1;
      if (left > 0) this.active.set(operatorId, left);
      else this.active.delete(operatorId);
      slot.busy = false;
      this.pump();
    }
  }

  private overBudget(operatorId: string, code: 'EXPRESSION_TIMEOUT' | 'EXPRESSION_MEMORY_LIMIT', field: string): ExpressionOutcome {
    this.options.onOverBudget?.({ operatorId, code, field });
    const message =
      code === 'EXPRESSION_TIMEOUT'
        ? `Evaluating ${field} took more than the ${this.options.timeoutMs} ms of CPU an expression may use`
        : `Evaluating ${field} needed more than the ${this.options.memoryMb} MB an expression may use`;
    return { ok: false, code, message, field };
  }
}
