import { temporal as proto } from '@temporalio/proto';
import type { TemporalClient } from './client';

const LOOK_DEADLINE_MS = 2_000;

const durationMs = (duration: { seconds?: unknown; nanos?: number | null } | null | undefined): number =>
  duration ? Number(duration.seconds ?? 0) * 1000 + (duration.nanos ?? 0) / 1e6 : 0;

/**
 * How long the oldest task has waited on the queues the dispatcher starts runs on, interactive and waiting — their
 * workflow tasks and their activity tasks, whichever is older — from the server's task queue statistics
 * (`DescribeTaskQueue` with `reportStats`; sticky workflow tasks are not counted, and live only seconds). Zero when nothing waits. The dispatcher's measure of whether the platform
 * keeps up with the runs it starts.
 */
export async function runQueuesBacklogMs(temporal: Pick<TemporalClient, 'client' | 'taskQueue' | 'waitingTaskQueue'>, signal: AbortSignal): Promise<number> {
  const { client } = temporal;
  const types = [proto.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW, proto.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY];
  const looks = [...new Set([temporal.taskQueue, temporal.waitingTaskQueue])].flatMap((taskQueue) =>
    types.map((taskQueueType) => ({ taskQueue, taskQueueType })),
  );
  // Bounded and cancellable: a look is worth nothing late, and none may outlive the watch (or retry past a closed connection).
  const ages = await client.connection.withAbortSignal(signal, () =>
    client.connection.withDeadline(Date.now() + LOOK_DEADLINE_MS, () =>
      Promise.all(
        looks.map(async ({ taskQueue, taskQueueType }) => {
          const answer = await client.workflowService.describeTaskQueue({
            namespace: client.options.namespace,
            taskQueue: { name: taskQueue, kind: proto.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
            taskQueueType,
            reportStats: true,
          });
          return durationMs(answer.stats?.approximateBacklogAge);
        }),
      ),
    ),
  );
  return Math.max(...ages);
}
