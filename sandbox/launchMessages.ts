/**
 * How much nicer than the worker the sandbox processes run (added on the launcher's thread, which starts them and whose
 * value they inherit): when the cores are contended, the worker, the API and the database — which serve every tenant —
 * go first, and the tenants' expressions (each bounded by its CPU budget, not by the clock) wait. A runaway expression
 * burns its whole budget, and a process killed for it costs a start of Node: CPU the platform's own processes would
 * otherwise lose to them.
 */
export const SANDBOX_NICE = 10;

/** Worker → launcher: start one sandbox process. */
export interface LaunchRequest {
  id: number;
  script: string;
  execArgv: string[];
  cwd: string;
  env: Record<string, string>;
}

/** Launcher → worker: it is ready, a process started (or could not), or a process it started has ended. */
export type LaunchReply = { ready: true } | { id: number; pid: number } | { id: number; error: string } | { exited: number };
