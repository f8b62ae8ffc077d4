import type { Config } from '../core/config';

/**
 * The two task queues. Interactive: what someone waits on — gateway lanes and calls, MCP tool calls, manual and test
 * runs, event-triggered and scheduled automation runs, invite e-mails, diagnostics. Background: what nobody waits on
 * within a request — batch ingestion, retention, the analytics refresh, the platform Schedules (outbox sweep, run
 * watchdog). A workflow's activities follow its queue, so the queue is chosen once, where the workflow starts.
 */
export interface TaskQueues {
  interactive: string;
  background: string;
}

/**
 * Both names from TEMPORAL_TASK_QUEUE, so a deployment keeps its one variable: the interactive queue keeps the old
 * name (work already on it is interactive work or is served by either role) and the background queue is
 * `<name>-background`. With `TEMPORAL_SPLIT_QUEUES=false` both are the one queue.
 *
 * @example taskQueuesOf({ TEMPORAL_TASK_QUEUE: 'operator-platform', TEMPORAL_SPLIT_QUEUES: true }).background // 'operator-platform-background'
 */
export function taskQueuesOf(config: Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'TEMPORAL_SPLIT_QUEUES'>): TaskQueues {
  const interactive = config.TEMPORAL_TASK_QUEUE;
  return { interactive, background: config.TEMPORAL_SPLIT_QUEUES ? `${interactive}-background` : interactive };
}
