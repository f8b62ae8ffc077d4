import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { ExpressionOutcome, ExpressionTask, SandboxMessage } from './tasks';

/** What became of one task in a sandbox process. */
export type ProcessResult =
  | { kind: 'outcome'; outcome: ExpressionOutcome }
  /** Past its budget: the process was killed. */
  | { kind: 'timeout'; field: string }
  /** The process ended on its own (its heap limit) or could not take the task (`started` false). */
  | { kind: 'exited'; field: string; started: boolean };

/** How long a new process may take to say it is ready, or a task to be begun. */
const START_DEADLINE_MS = 30_000;
const fromSource = __filename.endsWith('.ts');
const SCRIPT = path.join(__dirname, `expressionProcess.${fromSource ? 'ts' : 'js'}`);

/**
 * One sandbox child process (`sandbox/expressionProcess.ts`) running one task at a time. Its environment is empty (no
 * database URL, no key), its heap is capped, its output goes nowhere, and it exits with its parent (IPC disconnect).
 * A killed or crashed process is started again by the next {@link prepare} or {@link run}.
 */
export class SandboxProcess {
  private child: ChildProcess | null = null;
  private ready: Promise<ChildProcess> | null = null;
  private nextId = 1;

  constructor(private readonly memoryMb: number) {}

  /** Starts the process when none runs and resolves once it has said it is ready. */
  prepare(): Promise<ChildProcess> {
    if (this.ready) return this.ready;
    const child = fork(SCRIPT, [], {
      cwd: path.resolve(__dirname, '..'),
      env: { NODE_ENV: process.env.NODE_ENV ?? 'production' },
      execArgv: [`--max-old-space-size=${this.memoryMb}`, ...(fromSource ? ['--import', 'tsx'] : [])],
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      serialization: 'advanced',
    });
    this.child = child;
    this.idle(child);
    child.once('exit', () => {
      if (this.child === child) {
        this.child = null;
        this.ready = null;
      }
    });
    const ready = new Promise<ChildProcess>((resolve, reject) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), START_DEADLINE_MS);
      const onMessage = (message: SandboxMessage) => {
        if (!('ready' in message)) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(child);
      };
      child.on('message', onMessage);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the sandbox process ended (${signal ?? code}) before it was ready`));
      });
    });
    ready.catch(() => undefined);
    this.ready = ready;
    return ready;
  }

  /** Runs one task; the budget starts when the process reports it began the task. */
  async run(task: ExpressionTask, timeoutMs: number): Promise<ProcessResult> {
    const child = await this.prepare();
    const id = this.nextId++;
    child.ref();
    child.channel?.ref();
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
        budget = setTimeout(() => {
          this.kill();
          finish({ kind: 'timeout', field });
        }, timeoutMs);
      };
      const onExit = () => finish({ kind: 'exited', field, started });
      const startDeadline = setTimeout(() => {
        this.kill();
        finish({ kind: 'exited', field, started: false });
      }, START_DEADLINE_MS);
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send({ id, task }, (error) => {
        if (error) {
          this.kill();
          finish({ kind: 'exited', field, started: false });
        }
      });
    });
  }

  kill(): void {
    this.child?.kill('SIGKILL');
    this.child = null;
    this.ready = null;
  }

  /** An idle process must not keep its parent alive (a script that forgets to close the sandbox still ends). */
  private idle(child: ChildProcess): void {
    child.unref();
    child.channel?.unref();
  }
}
