import { spawn } from 'node:child_process';

const READY_TIMEOUT_MS = 120_000;

/** A bench's helper process, started and ready. */
export interface ReadyProcess {
  pid: number | undefined;
  /** The line's match that said it was ready. */
  ready: RegExpMatchArray;
  /** SIGTERM, and its exit. */
  stop(): Promise<void>;
}

/**
 * Runs a TypeScript `script` as a process of its own with `env` added, and waits until a line of its stdout matches
 * `ready`. With PROCESS_PROFILE_DIR set it writes a V8 CPU profile there at exit, as the platform's processes do
 * (tools/stack/processStack.ts).
 */
export async function spawnReady(script: string, env: Record<string, string>, ready: RegExp, what: string): Promise<ReadyProcess> {
  const profile = process.env.PROCESS_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROCESS_PROFILE_DIR}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not become ready`)), READY_TIMEOUT_MS);
    let output = '';
    const listen = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const found = ready.exec(output);
      if (!found) return;
      clearTimeout(timer);
      // Past its ready line the helper's output is drained unread, not gathered for the whole run.
      child.stdout.off('data', listen);
      child.stdout.resume();
      resolve(found);
    };
    child.stdout.on('data', listen);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${child.exitCode ?? child.signalCode})`));
    });
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return {
    pid: child.pid,
    ready: match,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
