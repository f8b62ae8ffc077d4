import type { RunStatus } from './automations/types';

/**
 * MCP tasks (2025-11-25 `tasks`, and the 2026-07-28 `io.modelcontextprotocol/tasks` extension): a `tools/call` that
 * answers at once with a handle on its automation run, which the agent polls, reads and cancels.
 */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];

/** The extension's id (2026-07-28), in capabilities and the related-task key's namespace. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
export const RELATED_TASK_META_KEY = 'io.modelcontextprotocol/related-task';

/** TTL a task gets when its client names none, and the longest one granted: a run's record outlives both. */
export const DEFAULT_TASK_TTL_MS = 24 * 60 * 60_000;
export const MAX_TASK_TTL_MS = 7 * 24 * 60 * 60_000;
export const MIN_TASK_TTL_MS = 60_000;
/** How often a client should poll: progress is refreshed from the run at most this often anyway. */
export const TASK_POLL_INTERVAL_MS = 2_000;
export const TASK_LIST_PAGE = 50;

/** The TTL granted for a requested one: clamped to [1 min, 7 days]; none asked → 24 h. */
export function grantedTtlMs(requested: unknown): number {
  if (typeof requested !== 'number' || !Number.isFinite(requested)) return DEFAULT_TASK_TTL_MS;
  return Math.min(MAX_TASK_TTL_MS, Math.max(MIN_TASK_TTL_MS, Math.round(requested)));
}

/**
 * A task's status from its run's: a run not yet recorded, or running, is `working` — `input_required` while it waits in
 * an `action.approval` —; one whose cancellation was asked
 * is `cancelled` at once (the run stops before its next node and closes `cancelled`). A tool error (a failed run) is a
 * completed call whose result has `isError: true`: MCP keeps `failed` for a call that produced no result at all.
 */
export function taskStatusOf(run: RunStatus | null, cancelRequested: boolean, awaitingInput = false): TaskStatus {
  if (run === 'completed' || run === 'failed') return 'completed';
  if (run === 'cancelled' || cancelRequested) return 'cancelled';
  return awaitingInput ? 'input_required' : 'working';
}

export const isTerminal = (status: TaskStatus) => TERMINAL_TASK_STATUSES.includes(status);

/**
 * Whether a tool is run as a task: `required` when its run can wait (delays) longer than a synchronous call is held
 * open — a host would time it out —, `optional` otherwise (MCP `execution.taskSupport`).
 */
export function taskSupportOf(waitsMs: number, syncBudgetMs: number): 'required' | 'optional' {
  return waitsMs >= syncBudgetMs ? 'required' : 'optional';
}

/** An opaque `tasks/list` cursor: the last task of the page before, by creation time then id. */
export function encodeTaskCursor(createdAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([createdAt.toISOString(), id])).toString('base64url');
}

export function decodeTaskCursor(cursor: unknown): { createdAt: Date; id: string } | undefined | 'invalid' {
  if (cursor === undefined) return undefined;
  if (typeof cursor !== 'string' || cursor.length > 200) return 'invalid';
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const createdAt = new Date(String(at));
    if (typeof id !== 'string' || Number.isNaN(createdAt.getTime())) return 'invalid';
    return { createdAt, id };
  } catch {
    return 'invalid';
  }
}
