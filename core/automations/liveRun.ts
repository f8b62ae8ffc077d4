import { suppressionOf } from './suppression';
import type { NodeResult, NodeStatus } from './types';

/**
 * What a step in flight waits for: an event of a type for the run's entity (`action.wait_for_event`), an answer
 * (`action.approval`) or the clock (`action.delay`), and until when. Only names and times: nothing a template rendered
 * (an approval's question stays in the sealed `awaitingInput`).
 */
export type LiveWait = { for: 'event'; event: string; until: string } | { for: 'approval'; until: string } | { for: 'delay'; until: string };

/** An activity of the step in flight that failed and waits to be tried again (read from Temporal's pending activities). */
export interface LiveRetry {
  /** The attempt that runs next (2 = the first retry). */
  attempt: number;
  /** When Temporal tries it next; null while an attempt runs. */
  nextAttemptAt: string | null;
  /** The last attempt's failure code (the `ApplicationFailure` type, `TIMEOUT` or `ERROR`): never its message. */
  lastErrorCode: string;
}

/**
 * One step of a running run as its workflow reports it (query `runTimeline`): an ended step keeps its spec status, its
 * duration, branch, suppression and error code; the step in flight is `running`, with what it waits for. No input,
 * output or message: those are sealed and stored when the run ends.
 */
export interface LiveStep {
  id: string;
  status: NodeStatus | 'running';
  /** When the workflow started the step; absent on the trigger and on steps skipped or reused without running. */
  startedAt?: string;
  durationMs: number;
  branch?: boolean;
  reused?: true;
  suppressed?: { rule: string };
  error?: { code: string };
  waiting?: LiveWait;
  retrying?: LiveRetry;
}

/** The answer of the run workflow's `runTimeline` query: its steps so far in run order (not yet reached: absent) and how many it has. */
export interface RunTimeline {
  steps: LiveStep[];
  total: number;
}

/** An ended step as the timeline reports it: its result without the sealed parts. */
export function endedStep(result: NodeResult, startedAt: number | undefined): LiveStep {
  const suppressed = result.suppressed ?? suppressionOf(result.output);
  return {
    id: result.id,
    status: result.status,
    ...(startedAt === undefined ? {} : { startedAt: new Date(startedAt).toISOString() }),
    durationMs: result.durationMs,
    ...(result.branch === undefined ? {} : { branch: result.branch }),
    ...(result.reused ? { reused: true as const } : {}),
    ...(suppressed ? { suppressed: { rule: suppressed.rule } } : {}),
    ...(result.error ? { error: { code: result.error.code } } : {}),
  };
}
