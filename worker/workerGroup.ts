import type { State, Worker, WorkerOptions } from '@temporalio/worker';
import type { Config } from '../core/config';
import { taskQueuesOf } from '../temporal/taskQueues';

/**
 * A workflow task left on the sticky queue of a worker that died waits this long before any worker may take it
 * (the SDK's default is 10 s). The cost: a live worker too busy to take its sticky task within it loses the task to
 * another, which replays the history instead of using its cache.
 */
export const STICKY_SCHEDULE_TO_START = '3 seconds';

/**
 * The longest the SDK holds back an activity's heartbeats (its default: 80 % of the heartbeat timeout). The platform's
 * heartbeat timeouts are a few seconds and mean "the worker is gone" (worker/livenessHeartbeat.ts), so a live worker
 * must get a heartbeat through well within them even when the server answers slowly: one a second, per running
 * activity that has a heartbeat timeout.
 */
export const HEARTBEAT_THROTTLE = '1 second';

/** One queue this process polls, with the slots its worker gets. */
export interface PolledQueue {
  role: 'interactive' | 'waiting' | 'background';
  taskQueue: string;
  slots: Pick<
    WorkerOptions,
    'maxConcurrentActivityTaskExecutions' | 'maxConcurrentLocalActivityExecutions' | 'maxConcurrentWorkflowTaskExecutions' | 'workflowThreadPoolSize'
  >;
}

/**
 * The queues this process polls (`WORKER_QUEUES`), one worker each on the one connection. Slots are fixed counts
 * sized to the database pool, not the SDK's resource-based tuner: the resource both roles share is the pool's
 * `DATABASE_POOL_MAX` connections, which CPU and memory targets do not see. The background worker may run at most half
 * the pool's worth of activities at once, so however much batch work is queued, half the connections stay free for
 * interactive work (a quarter made jobs queue behind each other for slots: docs/production.md); the interactive
 * worker keeps the SDK's slot defaults, its database waits queuing on the pool as before, and runs workflow code on
 * `WORKER_WORKFLOW_THREADS` threads. The interactive role polls the
 * waiting queue too, with a worker of its own: what stays open lives in that worker's cache, not in the interactive
 * one's, and its few workflow-task and local-activity slots (`WORKER_WAITING_WORKFLOW_TASKS`,
 * `WORKER_WAITING_LOCAL_ACTIVITIES`) keep a burst of it from taking the CPU. With the queues merged
 * (`TEMPORAL_SPLIT_QUEUES=false`) there is one worker.
 */
export function polledQueues(
  config: Pick<
    Config,
    | 'TEMPORAL_TASK_QUEUE'
    | 'TEMPORAL_SPLIT_QUEUES'
    | 'WORKER_QUEUES'
    | 'DATABASE_POOL_MAX'
    | 'WORKER_WAITING_WORKFLOW_TASKS'
    | 'WORKER_WAITING_LOCAL_ACTIVITIES'
    | 'WORKER_WORKFLOW_THREADS'
  >,
): PolledQueue[] {
  const queues = taskQueuesOf(config);
  const interactiveSlots = { workflowThreadPoolSize: config.WORKER_WORKFLOW_THREADS };
  if (queues.background === queues.interactive) return [{ role: 'interactive', taskQueue: queues.interactive, slots: interactiveSlots }];
  const backgroundSlots = Math.max(1, Math.floor(config.DATABASE_POOL_MAX / 2));
  const polled: PolledQueue[] = [];
  if (config.WORKER_QUEUES !== 'background')
    polled.push(
      { role: 'interactive', taskQueue: queues.interactive, slots: interactiveSlots },
      {
        role: 'waiting',
        taskQueue: queues.waiting,
        slots: {
          maxConcurrentWorkflowTaskExecutions: config.WORKER_WAITING_WORKFLOW_TASKS,
          maxConcurrentLocalActivityExecutions: config.WORKER_WAITING_LOCAL_ACTIVITIES,
        },
      },
    );
  if (config.WORKER_QUEUES !== 'interactive')
    polled.push({
      role: 'background',
      taskQueue: queues.background,
      slots: {
        maxConcurrentActivityTaskExecutions: backgroundSlots,
        maxConcurrentLocalActivityExecutions: backgroundSlots,
        maxConcurrentWorkflowTaskExecutions: Math.max(2, backgroundSlots),
      },
    });
  return polled;
}

/**
 * The workers of one process, run and stopped together: a worker that fails stops the others, so the process exits
 * and its supervisor starts a whole one.
 */
export class WorkerGroup {
  constructor(readonly workers: Worker[]) {}

  async run(): Promise<void> {
    const runs = this.workers.map((worker) => worker.run());
    try {
      await Promise.all(runs);
    } catch (error) {
      this.shutdown();
      await Promise.allSettled(runs);
      throw error;
    }
  }

  /** `RUNNING` while any worker runs. */
  getState(): State {
    const states = this.workers.map((worker) => worker.getState());
    return states.includes('RUNNING') ? 'RUNNING' : states[0]!;
  }

  shutdown(): void {
    for (const worker of this.workers) if (worker.getState() === 'RUNNING') worker.shutdown();
  }
}
