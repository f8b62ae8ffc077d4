import type { ChildProcess } from 'node:child_process';

/**
 * Stops a server this process started: SIGTERM for a graceful shutdown, SIGKILL if it is still there after
 * `forceAfterMs`; resolves once it has exited (at once if it already had).
 *
 * @example await stopChild(child, 20_000)
 */
export function stopChild(child: ChildProcess, forceAfterMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), forceAfterMs);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
