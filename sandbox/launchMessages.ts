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
