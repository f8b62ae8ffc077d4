import type { components } from '../../../../api/schema';
import { formatDateTime } from '../../../../format';
import './runs.css';

type Wait = components['schemas']['WorkflowRunWait'];
type Retry = components['schemas']['WorkflowRunRetry'];
export type LivePart = components['schemas']['WorkflowRunLive'];

/** The live fields a step of a running run may carry (the API's `running` step: what it waits for, its retry). */
export interface LiveFields {
  status: string;
  waiting?: Wait;
  retrying?: Retry;
}

/** What a wait is for, in words: the event type awaited, an approval, or the clock. */
export function waitText(wait: Wait): string {
  const until = formatDateTime(wait.until);
  if (wait.for === 'event') return `waiting for ${wait.event} until ${until}`;
  if (wait.for === 'approval') return `waiting for an approval until ${until}`;
  return `waiting until ${until}`;
}

/** A retry in words: the attempt, when it runs and the last error's code. */
export function retryText(retry: Retry): string {
  const when = retry.nextAttemptAt ? `next try ${formatDateTime(retry.nextAttemptAt)}` : 'trying now';
  return `retrying: attempt ${retry.attempt}, ${when} (last error ${retry.lastErrorCode})`;
}

/** The badge a live step wears: `waiting`, `retrying` or `running`; an ended step its own status. */
export function liveStatus(step: LiveFields): string {
  if (step.status !== 'running') return step.status;
  if (step.retrying) return 'retrying';
  return step.waiting ? 'waiting' : 'running';
}

/** One line on the step in flight: its badge and what it waits for or how it retries. */
export function LiveStepLine({ step }: { step: LiveFields & { id: string } }) {
  const status = liveStatus(step);
  return (
    <span className="run-live-step">
      <span className={`badge badge-${status}`}>{status}</span> <strong>{step.id}</strong>
      {step.waiting && <span className="hint"> · {waitText(step.waiting)}</span>}
      {step.retrying && <span className="hint"> · {retryText(step.retrying)}</span>}
    </span>
  );
}

/**
 * Where a running run is, for a list's row: the step in flight and how far (`step 2 of 4`), or that its workflow did
 * not answer this time. Nothing for a run the list did not ask (past the first 10 running on the page).
 */
export function LiveSummary({ live }: { live: LivePart | undefined }) {
  if (!live) return null;
  if (!live.answered) return <span className="hint"> · live steps unavailable just now</span>;
  return (
    <span className="run-live">
      {' '}
      {live.current ? <LiveStepLine step={live.current} /> : <span className="hint">between steps</span>}
      {live.done !== undefined && live.total !== undefined && (
        <span className="hint">
          {' '}
          · {live.done} of {live.total} steps done
        </span>
      )}
    </span>
  );
}

/** A running run's line on its page: how far it is, the step in flight and when its workflow was asked (the page asks every 1.5 s). */
export function LiveProgress({ live }: { live: LivePart | undefined }) {
  if (!live) return null;
  if (!live.answered)
    return (
      <p className="hint run-live">Its steps could not be read from the running workflow just now ({formatDateTime(live.readAt)}); the page tries again.</p>
    );
  return (
    <p className="run-live" data-live-read-at={live.readAt}>
      {live.current ? <LiveStepLine step={live.current} /> : <span className="hint">Between steps</span>}
      <span className="hint">
        {' '}
        · {live.done} of {live.total} steps done · live as of {formatDateTime(live.readAt)}
      </span>
    </p>
  );
}
