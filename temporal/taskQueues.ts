import type { Config } from '../core/config';

/**
 * The task queues. Interactive: what someone waits on — gateway lanes and calls, MCP tool calls, manual and test
 * runs, event-triggered and scheduled automation runs, invite e-mails, diagnostics. Waiting: what stays open waiting
 * — run-control lanes, and the runs the dispatcher or a waiting caller starts of an automation with a node that holds
 * its run (a delay, an approval, a wait for an event). Polled by a worker of its own beside the interactive one, so
 * thousands of open workflows neither fill the interactive worker's cache (whose every task the SDK core pays for
 * by walking it: docs/workflows.md "Runs a worker keeps between tasks") nor queue on its workflow thread. Background:
 * what nobody waits on within a request — batch ingestion, retention, the analytics refresh, the platform Schedules
 * (outbox sweep, run watchdog). A workflow's activities and child workflows follow its queue, so the queue is chosen
 * once, where the workflow starts.
 */
export interface TaskQueues {
  interactive: string;
  waiting: string;
  background: string;
}

/**
 * Every name from TEMPORAL_TASK_QUEUE, so a deployment keeps its one variable: the interactive queue keeps the old
 * name (work already on it is interactive work or is served by either role), the waiting queue is `<name>-waiting`
 * and the background queue `<name>-background`. With `TEMPORAL_SPLIT_QUEUES=false` all are the one queue.
 *
 * @example taskQueuesOf({ TEMPORAL_TASK_QUEUE: 'operator-platform', TEMPORAL_SPLIT_QUEUES: true }).background // 'operator-platform-background'
 */
export function taskQueuesOf(config: Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'TEMPORAL_SPLIT_QUEUES'>): TaskQueues {
  const interactive = config.TEMPORAL_TASK_QUEUE;
  if (!config.TEMPORAL_SPLIT_QUEUES) return { interactive, waiting: interactive, background: interactive };
  return { interactive, waiting: `${interactive}-waiting`, background: `${interactive}-background` };
}
