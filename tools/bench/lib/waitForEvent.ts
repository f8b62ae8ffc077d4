import type { AppDeps } from '../../../api/deps';
import type { Db } from '../../../db/knex';
import { startAutomationRun } from '../../../temporal/automationRuns';
import { post } from './stack';
import { percentile } from './stats';

const RUN_TIMEOUT_MS = 15_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` every `intervalMs` until it gives a value; throws `what` once `timeoutMs` passed without one. */
export async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = RUN_TIMEOUT_MS, intervalMs = 5): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
    await sleep(intervalMs);
  }
}

/**
 * Event write → waiting run resumed: a workflow whose only step is an `action.wait_for_event` on
 * `entity_event.session` (no automation triggers on it), one run at a time started for the player and left to
 * register its wait; then the event is written and timed from the start of its POST to the run's `completed_at` (the
 * step ends the run, so that is when the run took the event). The path: the write, the dispatcher's pass (woken by
 * NOTIFY), the signal, and the run's read of the event, its wait row's removal and its end.
 *
 * @example const { p50, p95 } = await eventToWaitingRun({ url, db, deps, apiKey, operatorId }, 100)
 */
export async function eventToWaitingRun(
  stack: { url: string; db: Db; deps: AppDeps; apiKey: string; operatorId: string },
  count: number,
  timeLimitMs: number,
): Promise<{ count: number; p50: number; p95: number }> {
  const { url, db, deps, apiKey, operatorId } = stack;
  const externalId = 'p-waiting';
  await post(url, '/operator-data-api/entities', { externalId, entityType: 'player', data: {} }, apiKey);
  const workflow = await post(
    url,
    '/workflows-api/workflows',
    {
      name: 'Bench waiting run',
      nodes: [
        { id: 'start', type: 'trigger.manual', params: {} },
        { id: 'session', type: 'action.wait_for_event', params: { event: 'entity_event.session', timeoutSeconds: 600 } },
      ],
      edges: [{ from: 'start', to: 'session' }],
    },
    apiKey,
  );
  const automationId = workflow.data.id as string;
  const latencies: number[] = [];
  const deadline = Date.now() + timeLimitMs;
  for (let n = 0; n < count && Date.now() < deadline; n += 1) {
    const { runId } = await startAutomationRun(deps.temporal, { operatorId, automationId, source: 'manual', input: { entity: { externalId } } });
    await until('no wait registered', async () =>
      (await db('automation_run_waits').where({ operator_id: operatorId, run_id: runId }).first()) ? true : undefined,
    );
    const writtenAt = Date.now();
    await post(url, `/operator-data-api/entities/${externalId}/events`, { eventType: 'session', data: { device: 'bench' } }, apiKey);
    const completed = await until('no resumed run', async () => {
      const run = await db('automation_runs').where({ operator_id: operatorId, id: runId }).whereNot({ status: 'running' }).first('status', 'completed_at');
      if (run && run.status !== 'completed') throw new Error(`waiting run ${runId} ${run.status}`);
      return run?.completed_at as Date | undefined;
    });
    latencies.push(completed.getTime() - writtenAt);
  }
  const sorted = latencies.sort((a, b) => a - b);
  return { count: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}
