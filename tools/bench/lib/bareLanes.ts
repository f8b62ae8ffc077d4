import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/client';
import { LANE_CALLS_PER_RUN } from '../../../workflows/gatewayCall';
import { fetchUpdate, updateLane } from '../temporal/workflows';

/** The gateway's floor: running workflows answering Updates with a local activity, one per call in flight. */
export interface BareLanes {
  /** One Update of an idle lane, whose local activity GETs `url` with `headers`: the answer's JSON. */
  update(url: string, headers: Record<string, string>): Promise<unknown>;
  /** Ends the lanes. */
  close(): Promise<void>;
}

/**
 * Starts `count` lanes (`updateLane`, rolling over as the gateway's do) on `taskQueue` with ids under `idPrefix`, and
 * hands each Update an idle one, as the gateway's lanes take an idle lane of their operator.
 */
export async function startBareLanes(client: Client, taskQueue: string, count: number, idPrefix = `${taskQueue}-lane`): Promise<BareLanes> {
  const idle = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      client.workflow.start(updateLane, { taskQueue, workflowId: `${idPrefix}-${index}`, args: [LANE_CALLS_PER_RUN] }),
    ),
  );
  const lanes = [...idle];
  const waiting: Array<(lane: (typeof idle)[number]) => void> = [];
  const take = () => idle.pop() ?? new Promise<(typeof idle)[number]>((resolve) => waiting.push(resolve));
  const give = (lane: (typeof idle)[number]) => {
    const next = waiting.shift();
    if (next) next(lane);
    else idle.push(lane);
  };
  return {
    async update(url, headers) {
      const lane = await take();
      try {
        // The handle follows the lane's chain of runs; an Update that reached a run as it rolled over is sent again, as the gateway's lanes do.
        for (let attempt = 0; ; attempt += 1) {
          try {
            return await lane.executeUpdate(fetchUpdate, { args: [{ url, headers }] });
          } catch (error) {
            if (attempt >= 3 || !(error instanceof WorkflowNotFoundError)) throw error;
          }
        }
      } finally {
        give(lane);
      }
    },
    async close() {
      await Promise.all(lanes.map((lane) => lane.terminate('benchmark done').catch(() => undefined)));
    },
  };
}
