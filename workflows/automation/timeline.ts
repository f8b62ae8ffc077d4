import { defineQuery } from '@temporalio/workflow';
import { endedStep, type LiveStep, type LiveWait, type RunTimeline } from '../../core/automations/liveRun';
import type { NodeResult } from '../../core/automations/types';

/**
 * Read by the runs API while a run lives (temporal/runTimeline.ts): every step so far, the one in flight with what it
 * waits for. A query records nothing in the history, so answering it needs no patch and replays unchanged.
 */
export const runTimelineQuery = defineQuery<RunTimeline>('runTimeline');

/**
 * The run's steps as they happen, kept in workflow memory only (no command, no activity): when each step started and
 * what the step in flight waits for; the ended steps are the interpreter's own results.
 */
export class LiveSteps {
  private order: readonly string[] = [];
  private results: ReadonlyMap<string, NodeResult> = new Map();
  private readonly startedAt = new Map<string, number>();
  private readonly waits = new Map<string, LiveWait>();

  /** From the begin step on: the run's steps in order and the interpreter's results map, read as it fills. */
  follow(order: readonly string[], results: ReadonlyMap<string, NodeResult>): void {
    this.order = order;
    this.results = results;
  }

  started(nodeId: string, at: number): void {
    this.startedAt.set(nodeId, at);
  }

  waiting(nodeId: string, wait: LiveWait): void {
    this.waits.set(nodeId, wait);
  }

  /** The query's answer: ended steps, then the step started and not ended (`running`), in run order. */
  read(now: number): RunTimeline {
    const steps: LiveStep[] = [];
    for (const id of this.order) {
      const result = this.results.get(id);
      const startedAt = this.startedAt.get(id);
      if (result) steps.push(endedStep(result, startedAt));
      else if (startedAt !== undefined) {
        const wait = this.waits.get(id);
        steps.push({
          id,
          status: 'running',
          startedAt: new Date(startedAt).toISOString(),
          durationMs: Math.max(0, now - startedAt),
          ...(wait ? { waiting: wait } : {}),
        });
      }
    }
    return { steps, total: this.order.length };
  }
}
