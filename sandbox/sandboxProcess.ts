import { readFileSync } from 'node:fs';
import { sandboxLauncher, type SandboxChild } from './launcher';
import type { ExpressionOutcome, ExpressionTask, SandboxMessage } from './tasks';

/** What became of one task in a sandbox process. */
export type ProcessResult =
  | { kind: 'outcome'; outcome: ExpressionOutcome }
  /** Past its budget: the process was killed. */
  | { kind: 'timeout'; field: string }
  /** The process ended on its own (its heap limit) or could not take the task (`started` false). */
  | { kind: 'exited'; field: string; started: boolean };

/** A task's wall-clock hard stop, in budgets: a process starved of CPU gets this long before it is killed anyway. */
export const WALL_FACTOR = 10;
const MIN_CHECK_MS = 5;
/**
 * A new process's first tasks run on code V8 has not compiled yet: an array expression of ~10 ms of CPU took ~28 ms
 * as a process's first task and ~17 ms as its second. Those tasks get {@link COLD_FACTOR} times the budget, so the
 * restart one operator's runaway expression causes does not fail the next operator's honest one; the runaway's own
 * next task gains at most one budget more, and its time counts against its share as any other.
 */
export const COLD_TASKS = 3;
export const COLD_FACTOR = 2;

/** The CPU budget of a process's `taskNumber`-th task (from 0). */
export const budgetOf = (taskNumber: number, timeoutMs: number) => (taskNumber < COLD_TASKS ? timeoutMs * COLD_FACTOR : timeoutMs);

/**
 * Milliseconds of CPU a process has run, from `/proc/<pid>/schedstat` (nanoseconds on CPU); undefined where that file
 * is not to be read (not Linux), and the budget is then wall-clock time.
 */
function cpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}

/** How long a new process may take to say it is ready, or a task to be begun. */
const START_DEADLINE_MS = 30_000;

/**
 * One sandbox child process (`sandbox/expressionProcess.ts`) running one task at a time, started by the launcher
 * (`launcher.ts`). Its environment holds only its socket and token (no database URL, no key), its heap is capped, its
 * output goes nowhere, and it exits with its parent (its socket closes). A killed or crashed process is started again
 * by the next {@link prepare} or {@link run}.
 */
export class SandboxProcess {
  private child: SandboxChild | null = null;
  private ready: Promise<SandboxChild> | null = null;
  private nextId = 1;
  /** Tasks the current process has been given, for {@link budgetOf}. */
  private tasksOnChild = 0;

  constructor(private readonly memoryMb: number) {}

  /** Starts the process when none runs and resolves once it has said it is ready. */
  prepare(): Promise<SandboxChild> {
    if (this.ready) return this.ready;
    const ready = sandboxLauncher()
      .start([`--max-old-space-size=${this.memoryMb}`], START_DEADLINE_MS)
      .then((child) => {
        if (this.ready !== ready) {
          child.kill();
          throw new Error('the sandbox process was killed before it was ready');
        }
        this.child = child;
        this.tasksOnChild = 0;
        this.idle(child);
        child.once('exit', () => {
          if (this.child === child) {
            this.child = null;
            this.ready = null;
          }
        });
        return child;
      });
    ready.catch(() => {
      if (this.ready === ready) this.ready = null;
    });
    this.ready = ready;
    return ready;
  }

  /** Runs one task; the budget ({@link budgetOf} `timeoutMs`) starts when the process reports it began the task. */
  async run(task: ExpressionTask, timeoutMs: number): Promise<ProcessResult> {
    const child = await this.prepare();
    const id = this.nextId++;
    const budgetMs = budgetOf(this.tasksOnChild++, timeoutMs);
    child.ref();
    return new Promise<ProcessResult>((resolve) => {
      let field = task.kind === 'condition' ? task.field : 'params';
      let started = false;
      let done = false;
      let budget: NodeJS.Timeout | undefined;
      const finish = (result: ProcessResult) => {
        if (done) return;
        done = true;
        clearTimeout(budget);
        clearTimeout(startDeadline);
        child.off('message', onMessage);
        child.off('exit', onExit);
        this.idle(child);
        resolve(result);
      };
      const onMessage = (message: SandboxMessage) => {
        if (!('id' in message) || message.id !== id) return;
        if ('outcome' in message) return finish({ kind: 'outcome', outcome: message.outcome });
        if ('field' in message) return void (field = message.field);
        started = true;
        const cpuAtStart = cpuMsOf(child.pid);
        const wallAtStart = performance.now();
        // The budget is the process's own CPU time on the task, so a busy machine does not fail a tenant's expression;
        // ten times the budget of wall-clock time is the hard stop whatever the machine is doing.
        const check = () => {
          const wall = performance.now() - wallAtStart;
          const cpu = cpuAtStart === undefined ? wall : (cpuMsOf(child.pid) ?? Infinity) - cpuAtStart;
          if (cpu < budgetMs && wall < budgetMs * WALL_FACTOR) return void (budget = setTimeout(check, Math.max(MIN_CHECK_MS, budgetMs - cpu)));
          this.kill();
          finish({ kind: 'timeout', field });
        };
        budget = setTimeout(check, budgetMs);
      };
      const onExit = () => finish({ kind: 'exited', field, started });
      const startDeadline = setTimeout(() => {
        this.kill();
        finish({ kind: 'exited', field, started: false });
      }, START_DEADLINE_MS);
      child.on('message', onMessage);
      child.once('exit', onExit);
      try {
        child.send({ id, task });
      } catch (error) {
        // The task itself cannot be serialized (nested past what the serializer's stack takes): the tenant's input, not the sandbox.
        const message = `The input of ${field} could not be handed to the expression sandbox: ${(error as Error).message}`;
        finish({ kind: 'outcome', outcome: { ok: false, code: 'EXPRESSION_ERROR', message, field } });
      }
    });
  }

  kill(): void {
    this.child?.kill();
    this.child = null;
    this.ready = null;
  }

  /** An idle process must not keep its parent alive (a script that forgets to close the sandbox still ends). */
  private idle(child: SandboxChild): void {
    child.unref();
  }
}
