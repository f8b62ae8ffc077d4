import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

export interface WorkerProcess {
  child: ChildProcess;
  /** Every line the worker printed on stdout (its JSON log lines among them). */
  lines: string[];
  /** The first line holding `text`, waited for up to `timeoutMs`. */
  line(text: string, timeoutMs?: number): Promise<string>;
  /** SIGKILL: a crash, no graceful shutdown. */
  kill(): Promise<void>;
  /** SIGTERM, then SIGKILL after 10 s. */
  stop(): Promise<void>;
}

const root = path.resolve(__dirname, '../..');

/**
 * Starts a real worker process (`processes/worker.ts`) with extra environment (its event dispatcher off unless
 * `EVENT_DISPATCH_ENABLED` is given: the shared worker dispatches), for tests that need their
 * own task queue or configuration, or that kill the worker. Resolves once it prints `worker ready`.
 * Node runs the TypeScript through `--import tsx` itself (no wrapper process), so a signal reaches
 * the worker and not a launcher that would leave it orphaned.
 */
export async function spawnWorker(env: Record<string, string>): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'processes/worker.ts'], {
    cwd: root,
    env: { ...process.env, EVENT_DISPATCH_ENABLED: 'false', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const reader = readline.createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    reader.on('line', (line) => {
      lines.push(line);
      if (line.includes('worker ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await ended;
    clearTimeout(force);
    reader.close();
    child.stdout?.destroy();
  };
  /** The logger writes asynchronously, so a log line may follow `worker ready` on stdout: waits for it. */
  const line = async (text: string, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = lines.find((candidate) => candidate.includes(text));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`the worker printed no line with ${JSON.stringify(text)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { child, lines, line, kill: () => signal('SIGKILL'), stop: () => signal('SIGTERM') };
}
